import { sideEffectCatalog } from "@wallet/contracts/side-effect-catalog";
import { sideEffectTopics } from "@wallet/contracts/side-effects";
import { anomalyKinds } from "@wallet/ledger/anomalies";
import { retryErrorLabels } from "@wallet/ledger/mysql-errors";
import { prunedTables } from "@wallet/ledger/retention/prune-expired";
import { type BacklogProbes, backlogGauges, sharedRead } from "@wallet/telemetry/backlog-metrics";
import { scrapeProbe } from "@wallet/telemetry/bounded-read";
import {
  createRegistry,
  databaseFencedGauge,
  databaseSessionRefusedGauge,
  dependencyMetrics,
  latencyBuckets,
  waitBuckets,
  zeroed,
} from "@wallet/telemetry/metrics";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

export interface WorkerProbes extends BacklogProbes {
  /** Side effects that failed for good and wait for `pnpm side-effects retry --dead`, by topic. */
  deadSideEffects: () => Promise<Map<string, number>>;
  /** Reports waiting for the reporting team's consumer, and the age of the oldest. */
  reportingBacklog: () => Promise<{ unread: number; oldestAgeSeconds: number }>;
  /** The reporting queue's length bound (REPORTING_MAX_LENGTH). */
  reportingMaxLength: number;
  /** Whether the main thread's database is fenced (its server found read-only). */
  databaseFenced: () => boolean;
  /** Whether the main thread's database refuses new connections their session (`docs/databases.md`). */
  databaseSessionRefused: () => boolean;
}

/**
 * The worker's metrics (docs/metrics.md). Labels are closed sets (op, action, result, topic,
 * queue, partition number): never player, round or transaction ids. Gauges that describe shared
 * state (queue depth, outbox) are read at scrape time, so every worker reports the same value and
 * dashboards aggregate them with `max`.
 */
export function createWorkerMetrics(probes: WorkerProbes) {
  const reportingBacklog = sharedRead(scrapeProbe(probes.reportingBacklog, "reporting backlog"), 500);
  const deadSideEffects = sharedRead(scrapeProbe(probes.deadSideEffects, "dead side effects"), 500);
  const registry = createRegistry();
  const registers = [registry];
  return {
    registry,
    ...sideEffectCounterSet(registers),
    dependencies: dependencyMetrics(registry),
    databaseFenced: databaseFencedGauge(registers, probes.databaseFenced),
    databaseSessionRefused: databaseSessionRefusedGauge(registers, probes.databaseSessionRefused),
    ...backlogGauges(registers, probes),
    queueWait: new Histogram({
      name: "wallet_ledger_queue_wait_seconds",
      help: "Time a ledger job waited on its partition before a worker started it (Redis clock)",
      labelNames: ["partition"] as const,
      buckets: waitBuckets,
      registers,
    }),
    closeIntake: zeroed(
      new Counter({
        name: "wallet_close_intake_total",
        help: "CLOSE_ROUNDs past the ordinary body limit taken by the close intake, by result (closed, refused: stored as refused, not_a_close: 400 or 413 stored nowhere, answered_before: a resend answered from the stored answer, failed: 503, the platform resends)",
        labelNames: ["result"] as const,
        registers,
      }),
      ["closed", "refused", "not_a_close", "answered_before", "failed"].map((result) => ({ result })),
    ),
    closeIntakeDuration: new Histogram({
      name: "wallet_close_intake_duration_seconds",
      help: "Time from the close intake taking a large close to its answer (read, stored, its round closed), by result",
      labelNames: ["result"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    batchSize: new Histogram({
      name: "wallet_ledger_batch_size",
      help: "Ledger jobs per group-committed transaction (one per partition with a job at that moment)",
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    }),
    jobDuration: new Histogram({
      name: "wallet_ledger_job_duration_seconds",
      help: "Time from a worker taking a ledger job to its answer being published (its batch included), by op",
      labelNames: ["op"] as const,
      buckets: latencyBuckets,
      registers,
    }),
    outcomes: new Counter({
      name: "wallet_ledger_outcomes_total",
      help: "Ledger job outcomes by op, action, result (applied/replayed/conflict/rejected/failed/expired) and status",
      labelNames: ["op", "action", "result", "status"] as const,
      registers,
    }),
    sideEffectsDead: new Gauge({
      name: "wallet_side_effects_dead",
      help: "Side effects that failed SIDE_EFFECT_MAX_ATTEMPTS times and wait for a person (pnpm side-effects retry --dead), by topic",
      labelNames: ["topic"] as const,
      registers,
      async collect() {
        const dead = await deadSideEffects().catch(() => undefined);
        if (dead) for (const topic of sideEffectTopics) this.set({ topic }, dead.get(topic) ?? 0);
      },
    }),
    anomalies: zeroed(
      new Counter({
        name: "wallet_anomalies_total",
        help: "Callbacks applied as decided but marked unusual in the journal, by kind (win_above_maxwin, second_win, rollback_amount_differs, rollback_round_differs, after_close)",
        labelNames: ["kind"] as const,
        registers,
      }),
      anomalyKinds.map((kind) => ({ kind })),
    ),
    reportingUnread: new Gauge({
      name: "wallet_reporting_unread_jobs",
      help: "Round reports waiting for the reporting team's consumer",
      registers,
      async collect() {
        const backlog = await reportingBacklog().catch(() => undefined);
        if (backlog) this.set(backlog.unread);
      },
    }),
    reportingOldestAge: new Gauge({
      name: "wallet_reporting_oldest_unread_age_seconds",
      help: "Age of the oldest round report the reporting team's consumer has not taken (0 when none)",
      registers,
      async collect() {
        const backlog = await reportingBacklog().catch(() => undefined);
        if (backlog) this.set(backlog.oldestAgeSeconds);
      },
    }),
    reportingMaxLength: new Gauge({
      name: "wallet_reporting_max_unread_jobs",
      help: "The reporting queue's bound: unread reports beyond it are dropped from Redis (kept in MySQL)",
      registers,
      collect() {
        this.set(probes.reportingMaxLength);
      },
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/**
 * The counters the side-effect path moves. Its thread (`side-effects.thread.ts`) forwards each
 * increment to the main thread (`forwardedCounters`), which owns them with the rest of the worker's
 * metrics: one registry, one /metrics, no sums to merge; the ledger moves some of them too.
 */
export const sideEffectCounters = [
  "transactionRetries",
  "jobsStalled",
  "jobsFailed",
  "sideEffects",
  "sideEffectFailures",
  "reconciliationMismatches",
  "outboxPublished",
  "outboxPruned",
  "retentionPruned",
  "reportingDropped",
  "outboxRequeued",
  "outboxUnknownTopic",
] as const;
type SideEffectCounter = (typeof sideEffectCounters)[number];
/** What the side-effect path counts with: the main thread's counters, or their forwarders on the thread. */
export type SideEffectMetrics = { [K in SideEffectCounter]: Pick<WorkerMetrics[K], "inc"> };

/** One increment, as the side-effect thread posts it to the main thread. */
export interface CountedMessage {
  type: "count";
  counter: SideEffectCounter;
  labels?: Record<string, string>;
  value?: number;
}

/** Counters that post each increment (`post`): the side-effect thread's metrics. */
export function forwardedCounters(post: (message: CountedMessage) => void): SideEffectMetrics {
  const forward = (counter: SideEffectCounter) => ({
    inc: (labelsOrValue?: Record<string, string> | number, value?: number) => {
      if (typeof labelsOrValue === "number") post({ type: "count", counter, value: labelsOrValue });
      else post({ type: "count", counter, labels: labelsOrValue, value });
    },
  });
  return Object.fromEntries(
    sideEffectCounters.map((counter) => [counter, forward(counter)]),
  ) as SideEffectMetrics;
}

/** Applies a forwarded increment to the main thread's counter (unknown names are ignored). */
export function countForwarded(metrics: WorkerMetrics, message: CountedMessage): void {
  if (!(sideEffectCounters as readonly string[]).includes(message.counter)) return;
  const counter = metrics[message.counter] as unknown as {
    inc: (labels: Record<string, string>, value?: number) => void;
  };
  counter.inc(message.labels ?? {}, message.value);
}

/**
 * The counters of `sideEffectCounters`. Counters an alert reads with increase() start at 0 for every
 * label set they can take: a stalled-job series that first appears at 5 reads as no increase, and
 * WalletJobsStalled never fires.
 */
function sideEffectCounterSet(registers: Registry[]) {
  const queues = [
    "ledger",
    "close-intake",
    ...sideEffectTopics.map((topic) => sideEffectCatalog[topic].queue),
  ].map((queue) => ({
    queue,
  }));
  return {
    transactionRetries: zeroed(
      new Counter({
        name: "wallet_ledger_transaction_retries_total",
        help: `Whole-transaction retries by server error (${retryErrorLabels.join(", ")})`,
        labelNames: ["error"] as const,
        registers,
      }),
      retryErrorLabels.map((error) => ({ error })),
    ),
    jobsStalled: zeroed(
      new Counter({
        name: "wallet_jobs_stalled_total",
        help: "Jobs whose worker lost the lock (crash or event-loop stall) and were taken back, by queue",
        labelNames: ["queue"] as const,
        registers,
      }),
      queues,
    ),
    jobsFailed: zeroed(
      new Counter({
        name: "wallet_jobs_failed_total",
        help: "Jobs that threw, by queue (side effects are retried by BullMQ)",
        labelNames: ["queue"] as const,
        registers,
      }),
      queues,
    ),
    sideEffects: zeroed(
      new Counter({
        name: "wallet_side_effects_total",
        help: "Side-effect deliveries by topic and outcome (applied, or duplicate: a counted no-op)",
        labelNames: ["topic", "outcome"] as const,
        registers,
      }),
      everyTopicWith(["applied", "duplicate"]),
    ),
    sideEffectFailures: zeroed(
      new Counter({
        name: "wallet_side_effect_failures_total",
        help: "Side effects that failed on their own, by topic and outcome (retrying: the sweep tries again; dead: gave up after SIDE_EFFECT_MAX_ATTEMPTS)",
        labelNames: ["topic", "outcome"] as const,
        registers,
      }),
      everyTopicWith(["retrying", "dead"]),
    ),
    reconciliationMismatches: new Counter({
      name: "wallet_reconciliation_mismatches_total",
      help: "Closed rounds whose CLOSE_ROUND arrays disagree with our own bets and wins, each once: a round reconciled again (money booked after its close) counts only if it did not disagree before",
      registers,
    }),
    outboxPublished: new Counter({
      name: "wallet_outbox_published_total",
      help: "Side effects published to their queues, four per CLOSE_ROUND (republishes included)",
      registers,
    }),
    outboxPruned: new Counter({
      name: "wallet_outbox_pruned_total",
      help: "Applied outbox rows deleted after their retention (OUTBOX_RETENTION_DAYS)",
      registers,
    }),
    retentionPruned: zeroed(
      new Counter({
        name: "wallet_retention_pruned_total",
        help: "Rows deleted after their retention period, by table (operator_actions, operator_api_tokens: revoked ones, refused_closes: resolved ones)",
        labelNames: ["table"] as const,
        registers,
      }),
      prunedTables.map((table) => ({ table })),
    ),
    reportingDropped: new Counter({
      name: "wallet_reporting_dropped_total",
      help: "Unread round reports dropped from Redis by the reporting queue's bound (kept in MySQL; republish restores them)",
      registers,
    }),
    outboxRequeued: new Counter({
      name: "wallet_outbox_requeued_total",
      help: "Published outbox rows whose effect never arrived, handed back to the relay by the sweep",
      registers,
    }),
    // No `topic` label: the topics this version does not know are not a closed set, and a series
    // born at its first count would read as no increase to the alert (WalletOutboxUnknownTopic).
    outboxUnknownTopic: new Counter({
      name: "wallet_outbox_unknown_topic_total",
      help: "Outbox rows the relay claimed whose topic this version does not know (written by a newer one, or by hand): left unapplied, claimed again at each sweep",
      registers,
    }),
  };
}

/** Each side-effect topic with each of `outcomes`: a topic-and-outcome counter's label sets. */
function everyTopicWith(outcomes: string[]) {
  return sideEffectTopics.flatMap((topic) => outcomes.map((outcome) => ({ topic, outcome })));
}
