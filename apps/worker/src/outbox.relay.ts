import { randomUUID } from "node:crypto";
import { type CloseRoundEvent, closeRoundEvent } from "@wallet/contracts/side-effects";
import type { LedgerContext } from "@wallet/ledger/context";
import { isDatabaseRefused } from "@wallet/ledger/mysql-errors";
import { recordSideEffectFailure } from "@wallet/ledger/side-effects/dead-letters";
import {
  markApplied,
  type OutboxRow,
  relayOutbox,
  requeueUnapplied,
  type UnknownTopicRow,
} from "@wallet/ledger/side-effects/outbox-queries";
import { readRoundSummaries } from "@wallet/ledger/side-effects/round-summary";
import type { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan, linksTo, SpanKind } from "@wallet/telemetry/spans";
import type { SideEffectMetrics } from "./metrics.ts";
import type { CrashAt } from "./test-crash-points.ts";

export interface RelayDeps {
  ctx: LedgerContext;
  queues: SideEffectQueues;
  logger: Logger;
  metrics: SideEffectMetrics;
  intervalMs: number;
  /** Most outbox rows one turn claims and publishes (in at most four jobs, one per topic). */
  batchSize: number;
  sweepEveryMs: number;
  sweepAgeSeconds: number;
  /** Test hook (`test-crash-points.ts`): a no-op in production. */
  crashAt: CrashAt;
}

/**
 * What the relay does with a claim: its rows' payloads read (a row that cannot be read is dead at
 * once), what each round did read once for its four jobs, and one job per topic published; a row of
 * a topic this version does not know counted and logged. Used by each relay turn, and by a test that
 * publishes two claims of the same rows (TiDB's `SKIP LOCKED` locks nothing).
 */
export function outboxPublisher(deps: Pick<RelayDeps, "ctx" | "queues" | "logger" | "metrics" | "crashAt">) {
  /** One effect of a row whose payload cannot be read: dead at once, with the reason. */
  const deadOnArrival = async (row: OutboxRow) => {
    const { topic } = row;
    // Event ids are `close-round:<operator>:<round>`.
    const roundId = row.eventId.split(":").slice(2).join(":") || row.eventId;
    await recordSideEffectFailure(deps.ctx.db, {
      topic,
      event: { eventId: row.eventId, tenantId: row.tenantId, roundId },
      error: "the outbox row's payload is not a CLOSE_ROUND event",
      maxAttempts: 1,
    });
    deps.metrics.sideEffectFailures.inc({ topic, outcome: "dead" });
    deps.logger.error(
      { eventId: row.eventId, outboxId: row.id, topic },
      "outbox row unreadable: its side effect is dead until the row is fixed and `pnpm side-effects retry --dead` is run",
    );
  };
  /**
   * Rows of a topic this version does not know: counted and logged (WalletOutboxUnknownTopic). They
   * stay unapplied, and the sweep hands them back, so each is counted again at every sweep until a
   * version that knows its topic relays it.
   */
  const unknownTopic = (rows: UnknownTopicRow[]) => {
    deps.metrics.outboxUnknownTopic.inc(rows.length);
    deps.logger.error(
      {
        rows: rows.length,
        topics: [...new Set(rows.map((row) => row.topic))],
        outboxIds: rows.slice(0, 20).map((row) => row.id),
        eventIds: rows.slice(0, 20).map((row) => row.eventId),
      },
      "outbox rows of a topic this version does not know: left unapplied (claimed again at each sweep) until a version that knows the topic relays them",
    );
  };
  const publish = async (rows: OutboxRow[]) => {
    await deps.crashAt("relay-before-publish");
    if (rows.length >= 8) await deps.crashAt("relay-mid-batch");
    // A close's row comes once per topic: its payload is parsed once. A row whose payload
    // cannot be read can never be published: its effects are dead at once, so it neither
    // stops the rows claimed with it nor comes back with every sweep.
    const parsed = new Map<number, CloseRoundEvent | undefined>();
    const ready: { row: OutboxRow; payload: CloseRoundEvent }[] = [];
    for (const row of rows) {
      if (!parsed.has(row.id)) parsed.set(row.id, readPayload(row.payload));
      const payload = parsed.get(row.id);
      if (payload) ready.push({ row, payload });
      else await deadOnArrival(row);
    }
    if (ready.length === 0) return;
    const payloads = ready.map(({ payload }) => payload);
    // Read once here, what each round did goes in all four of its jobs (the consumers would
    // read the same rows four times); only reporting needs the bets themselves.
    const summaries = await readRoundSummaries(deps.ctx, payloads);
    // Linked, not parented, to the CLOSE_ROUNDs whose effects these are: one batch serves many rounds.
    await inSpan(
      "outbox publish",
      {
        kind: SpanKind.PRODUCER,
        links: linksTo(payloads.map((payload) => payload.traceparent)),
        attributes: { "messaging.system": "bullmq", "messaging.batch.message_count": ready.length },
      },
      () =>
        deps.queues.publish(
          ready.map(({ row, payload }) => {
            const round = summaries.get(row.eventId);
            const shipped = round && row.topic !== "reporting" ? { ...round, bets: undefined } : round;
            return {
              topic: row.topic,
              eventId: row.eventId,
              payload: { ...payload, round: shipped },
            };
          }),
          // A fresh id per claim, never the rows' range alone: when the sweep hands back rows
          // whose job failed for good (kept a week in the failed set), the same range must
          // make a new job, not be taken for the old one and dropped.
          `outbox-${ready[0]?.row.id}-${ready.at(-1)?.row.id}-${randomUUID().slice(0, 8)}`,
        ),
    );
    deps.metrics.outboxPublished.inc(ready.length);
    await deps.crashAt("relay-after-publish");
  };
  return { publish, unknownTopic };
}

/**
 * Moves committed outbox rows to the side-effect queues: claim a batch and commit, then one job per
 * topic. Any number of relays may run. Each turn first marks applied the rows whose effects all have
 * their receipts. A sweep hands back rows whose job never arrived (a crash between claim and publish,
 * Redis lost its data, a job that failed for good) once they are `sweepAgeSeconds` old.
 */
export function startOutboxRelay(deps: RelayDeps): { stop: () => Promise<void> } {
  let running = true;
  let lastSweep = 0;
  const { publish, unknownTopic } = outboxPublisher(deps);
  const loop = (async () => {
    while (running) {
      try {
        // Rows whose every effect has its receipt are marked applied first, so the sweep below never
        // takes a finished row for a lost one.
        await markApplied(deps.ctx.db);
        if (Date.now() - lastSweep >= deps.sweepEveryMs) {
          lastSweep = Date.now();
          const requeued = await requeueUnapplied(deps.ctx.db, deps.sweepAgeSeconds);
          if (requeued > 0) {
            deps.metrics.outboxRequeued.inc(requeued);
            deps.logger.warn({ requeued }, "outbox rows published but never applied: republishing");
          }
        }
        const relayed = await relayOutbox(deps.ctx.db, publish, deps.batchSize, unknownTopic);
        // A full batch means more are waiting: go on at once. Otherwise wait, so the next turn carries
        // many rounds in its four jobs instead of one round each (the interval bounds the added lag).
        if (relayed >= deps.batchSize) continue;
      } catch (error) {
        // Not every turn of a fenced database or a refused session: it said so once.
        if (!isDatabaseRefused(error)) deps.logger.error({ err: error }, "outbox relay failed; retrying");
      }
      await new Promise((resolve) => setTimeout(resolve, deps.intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

function readPayload(payload: string): CloseRoundEvent | undefined {
  try {
    return closeRoundEvent.parse(JSON.parse(payload));
  } catch {
    return undefined;
  }
}
