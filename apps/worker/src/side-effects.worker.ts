import { redisNames } from "@wallet/contracts/jobs";
import { type SideEffectJobData, sideEffectCatalog } from "@wallet/contracts/side-effect-catalog";
import { type CloseRoundEvent, type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import type { LedgerContext } from "@wallet/ledger/context";
import { applySideEffects } from "@wallet/ledger/side-effects/apply-side-effect";
import { recordSideEffectFailure } from "@wallet/ledger/side-effects/dead-letters";
import type { RedisClient } from "@wallet/queue/redis";
import type { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan, linksTo, queueSpanAttributes, SpanKind } from "@wallet/telemetry/spans";
import { type Job, Worker } from "bullmq";
import { isInfrastructureError } from "./failure-kind.ts";
import type { SideEffectMetrics } from "./metrics.ts";
import type { CrashAt } from "./test-crash-points.ts";

export interface SideEffectWorkerDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  prefix: string;
  queues: SideEffectQueues;
  logger: Logger;
  metrics: SideEffectMetrics;
  concurrency: number;
  lockMs: number;
  stallCheckMs: number;
  /** SIDE_EFFECT_MAX_ATTEMPTS: failures of one effect on its own before it is dead. */
  maxAttempts: number;
  /** Test hook (`test-crash-points.ts`): a no-op in production. */
  crashAt: CrashAt;
}

/**
 * One consumer per topic. Each job (one relay turn's events for the topic) applies them with their
 * receipts in one MySQL transaction, or several of at most 1,000 receipts and players each
 * (`effect-transactions.ts`), so redeliveries (BullMQ retries, stalled jobs, relay republishes) are
 * counted no-ops, event by event.
 */
export function startSideEffectWorkers(deps: SideEffectWorkerDeps): Worker[] {
  return sideEffectTopics.map((topic) => {
    const { queue, job: jobSchema } = sideEffectCatalog[topic];
    const apply = async (job: Job<unknown>) => {
      // Parsed against the catalog: a job from an older relay (one event as the whole job) reads as a batch of one.
      const { events }: SideEffectJobData<typeof topic> = jobSchema.parse(job.data);
      // A new trace per batch, linked to each CLOSE_ROUND that owed one of its effects: effects run
      // later, maybe many times, and would stretch the callbacks' traces far past their answers.
      return inSpan(
        `${queue} process`,
        {
          kind: SpanKind.CONSUMER,
          links: linksTo(events.map((event) => event.traceparent)),
          attributes: {
            ...queueSpanAttributes("process", queue, String(job.id)),
            "messaging.batch.message_count": events.length,
          },
        },
        async (span) => {
          // BullMQ retries a job that failed on the infrastructure (with backoff); on its last attempt
          // such a failure is the event's own (or no transient one): it is isolated and counted.
          const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
          const outcome = await applyAll(topic, events, lastAttempt);
          span.setAttribute("wallet.side_effect.outcome", outcome);
          return outcome;
        },
      );
    };
    const worker = new Worker(queue, apply, {
      connection: deps.redis,
      prefix: redisNames(deps.prefix).bullPrefix(queue),
      concurrency: deps.concurrency,
      lockDuration: deps.lockMs,
      stalledInterval: deps.stallCheckMs,
      maxStalledCount: 5,
    });
    worker.on("failed", (job, error) => {
      deps.metrics.jobsFailed.inc({ queue });
      const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      deps.logger.error(
        { err: error, topic, attempts: job?.attemptsMade },
        final
          ? "side effect job failed for good; the sweep republishes it"
          : "side effect failed; BullMQ will retry",
      );
      // A job that failed for good without being isolated (it stalled past its limit, or even the
      // failure could not be recorded) still counts against each of its events: one that keeps
      // breaking its worker or its connection ends dead instead of coming back with every sweep.
      if (final) void countFinalFailure(topic, job.data, error);
    });
    worker.on("stalled", () => deps.metrics.jobsStalled.inc({ queue }));
    worker.on("error", (error) => deps.logger.error({ err: error, topic }, "side-effect worker error"));
    return worker;
  });

  /**
   * A batch that fails for another reason than the infrastructure has a poison event in it: each
   * event is applied on its own, so the others land now, and the one that fails alone is counted
   * (`recordSideEffectFailure`). The job then completes: its failed events stay unapplied in the
   * outbox and the sweep republishes them, one attempt a sweep, until they land or are dead. A batch
   * that fails on the infrastructure (MariaDB or Redis down, a lock wait, a lost connection) is
   * retried by BullMQ as it is; on its last attempt it is isolated and counted the same way, so an
   * event that keeps breaking its connection (a statement past max_allowed_packet did) dies after
   * SIDE_EFFECT_MAX_ATTEMPTS instead of coming back for ever. During a real outage the failure cannot
   * be recorded either: the job fails and the sweep hands it back, and nothing is counted.
   */
  async function applyAll(
    topic: SideEffectTopic,
    events: CloseRoundEvent[],
    lastAttempt: boolean,
  ): Promise<string> {
    const retriedAsIs = (error: unknown) => isInfrastructureError(error) && !lastAttempt;
    try {
      return await applyBatch(topic, events);
    } catch (error) {
      if (retriedAsIs(error)) throw error;
      const [only] = events;
      if (only && events.length === 1) {
        await recordFailure(topic, only, error); // it already failed on its own
        return "failed";
      }
      let outcome = "failed";
      for (const event of events) {
        try {
          const alone = await applyBatch(topic, [event]);
          if (alone === "applied" || outcome === "failed") outcome = alone;
        } catch (eventError) {
          if (retriedAsIs(eventError)) throw eventError;
          await recordFailure(topic, event, eventError);
        }
      }
      return outcome;
    }
  }

  /** One attempt counted against each event of a job that failed for good (best effort: MariaDB may be down). */
  async function countFinalFailure(topic: SideEffectTopic, data: unknown, error: Error): Promise<void> {
    const parsed = sideEffectCatalog[topic].job.safeParse(data);
    if (!parsed.success) return;
    const { events }: SideEffectJobData<typeof topic> = parsed.data;
    for (const event of events) await recordFailure(topic, event, error).catch(() => {});
  }

  async function recordFailure(topic: SideEffectTopic, event: CloseRoundEvent, error: unknown) {
    const { attempts, dead } = await recordSideEffectFailure(deps.ctx.db, {
      topic,
      event,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      maxAttempts: deps.maxAttempts,
    });
    deps.metrics.sideEffectFailures.inc({ topic, outcome: dead ? "dead" : "retrying" });
    const context = { err: error, topic, eventId: event.eventId, attempts, maxAttempts: deps.maxAttempts };
    if (dead)
      deps.logger.error(context, "side effect failed for good: dead until `pnpm side-effects retry --dead`");
    else deps.logger.warn(context, "side effect failed on its own; the sweep tries it again");
  }

  async function applyBatch(topic: SideEffectTopic, events: CloseRoundEvent[]): Promise<string> {
    const result = await applySideEffects({
      ctx: deps.ctx,
      input: {
        topic,
        events,
        publishReports: (reports) => deps.queues.reporting.publish(reports),
        testHookBeforeCommit: async () => {
          await deps.crashAt("consumer-before-commit");
          if (events.length >= 2) await deps.crashAt("consumer-mid-batch");
        },
      },
    });
    if (result.applied > 0) deps.metrics.sideEffects.inc({ topic, outcome: "applied" }, result.applied);
    if (result.duplicates > 0)
      deps.metrics.sideEffects.inc({ topic, outcome: "duplicate" }, result.duplicates);
    if (result.mismatches > 0) deps.metrics.reconciliationMismatches.inc(result.mismatches);
    deps.logger.debug({ topic, ...result }, "side effects");
    return result.applied > 0 ? "applied" : "duplicate";
  }
}
