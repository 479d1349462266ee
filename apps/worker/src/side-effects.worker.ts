import { redisNames } from "@wallet/contracts/jobs";
import {
  type CloseRoundEvent,
  type SideEffectTopic,
  sideEffectJob,
  sideEffectTopics,
} from "@wallet/contracts/side-effects";
import type { LedgerContext } from "@wallet/ledger/context";
import { applySideEffects } from "@wallet/ledger/side-effects/apply-side-effect";
import type { RedisClient } from "@wallet/queue/redis";
import { type SideEffectQueues, sideEffectQueueName } from "@wallet/queue/side-effect-queues";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan, linksTo, queueSpanAttributes, SpanKind } from "@wallet/telemetry/spans";
import { type Job, Worker } from "bullmq";
import type { FaultPoint } from "./faults.ts";
import type { WorkerMetrics } from "./metrics.ts";

export interface SideEffectWorkerDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  prefix: string;
  queues: SideEffectQueues;
  logger: Logger;
  metrics: WorkerMetrics;
  concurrency: number;
  lockMs: number;
  stallCheckMs: number;
  fault: (point: FaultPoint) => Promise<void>;
}

/**
 * One consumer per topic. Each job (one relay turn's events for the topic) applies them all in one
 * MySQL transaction with their receipts, so redeliveries (BullMQ retries, stalled jobs, relay
 * republishes) are counted no-ops, event by event.
 */
export function startSideEffectWorkers(deps: SideEffectWorkerDeps): Worker[] {
  return sideEffectTopics.map((topic) => {
    const queue = sideEffectQueueName(topic);
    const apply = async (job: Job) => {
      const { events } = sideEffectJob.parse(job.data);
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
          const outcome = await applyAll(topic, events);
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
      deps.logger.error(
        { err: error, topic, attempts: job?.attemptsMade },
        "side effect failed; BullMQ will retry",
      );
    });
    worker.on("stalled", () => deps.metrics.jobsStalled.inc({ queue }));
    worker.on("error", (error) => deps.logger.error({ err: error, topic }, "side-effect worker error"));
    return worker;
  });

  async function applyAll(topic: SideEffectTopic, events: CloseRoundEvent[]): Promise<string> {
    const result = await applySideEffects({
      ctx: deps.ctx,
      input: {
        topic,
        events,
        publishReports: (reports) => deps.queues.reporting.publish(reports),
        beforeCommit: async () => {
          await deps.fault("consumer-before-commit");
          if (events.length >= 2) await deps.fault("consumer-mid-batch");
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
