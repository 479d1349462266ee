import { redisNames } from "@wallet/contracts/jobs";
import { sideEffectTopics } from "@wallet/contracts/side-effects";
import type { LedgerContext } from "@wallet/ledger/context";
import { applySideEffect } from "@wallet/ledger/side-effects/apply-side-effect";
import { type SideEffectQueues, sideEffectQueueName } from "@wallet/queue/side-effect-queues";
import type { Logger } from "@wallet/telemetry/logger";
import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { FaultPoint } from "./faults.ts";
import type { WorkerMetrics } from "./metrics.ts";

export interface SideEffectWorkerDeps {
  ctx: LedgerContext;
  redis: Redis;
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
    const worker = new Worker(
      sideEffectQueueName(topic),
      async (job) => {
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
      },
      {
        connection: deps.redis,
        prefix: redisNames(deps.prefix).bullPrefix,
        concurrency: deps.concurrency,
        lockDuration: deps.lockMs,
        stalledInterval: deps.stallCheckMs,
        maxStalledCount: 5,
      },
    );
    worker.on("failed", (job, error) =>
      deps.logger.error(
        { err: error, topic, attempts: job?.attemptsMade },
        "side effect failed; BullMQ will retry",
      ),
    );
    worker.on("error", (error) => deps.logger.error({ err: error, topic }, "side-effect worker error"));
    return worker;
  });
}
