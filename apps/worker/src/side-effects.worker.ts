import { redisNames } from "@wallet/contracts/jobs";
import { type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import type { LedgerContext } from "@wallet/ledger/context";
import { applySideEffect } from "@wallet/ledger/side-effects/apply-side-effect";
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
 * One consumer per topic. Each job applies its effect in one MySQL transaction with its receipt,
 * so redeliveries (BullMQ retries, stalled jobs, relay republishes) are counted no-ops.
 */
export function startSideEffectWorkers(deps: SideEffectWorkerDeps): Worker[] {
  return sideEffectTopics.map((topic) => {
    const queue = sideEffectQueueName(topic);
    const apply = async (job: Job) => {
      // A new trace per effect, linked to the CLOSE_ROUND that owed it: effects run later, maybe
      // many times, and would stretch the callback's trace far past its answer.
      const traceparent = (job.data as { traceparent?: unknown } | undefined)?.traceparent;
      return inSpan(
        `${queue} process`,
        {
          kind: SpanKind.CONSUMER,
          links: linksTo([typeof traceparent === "string" ? traceparent : undefined]),
          attributes: queueSpanAttributes("process", queue, String(job.id)),
        },
        async (span) => {
          const outcome = await applyOne(topic, job);
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

  async function applyOne(topic: SideEffectTopic, job: Job): Promise<string> {
    const result = await applySideEffect({
      ctx: deps.ctx,
      input: {
        topic,
        event: job.data,
        publishReport: (report) => deps.queues.publishReport(report),
        beforeCommit: () => deps.fault("consumer-before-commit"),
      },
    });
    deps.metrics.sideEffects.inc({ topic, outcome: result.outcome });
    if (result.outcome === "applied" && result.mismatch) deps.metrics.reconciliationMismatches.inc();
    deps.logger.debug({ topic, outcome: result.outcome }, "side effect");
    return result.outcome;
  }
}
