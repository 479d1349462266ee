import { readLedgerJob, redisNames } from "@wallet/contracts/jobs";
import type { LedgerContext } from "@wallet/ledger/context";
import type { AckLog } from "@wallet/queue/ack-log";
import type { RedisClient } from "@wallet/queue/redis";
import type { RedisClock } from "@wallet/queue/redis-clock";
import type { Logger } from "@wallet/telemetry/logger";
import { contextFrom, inSpan, markFailed, queueSpanAttributes, SpanKind } from "@wallet/telemetry/spans";
import { type Job, Worker } from "bullmq";
import { GroupCommit } from "./group-commit.ts";
import { jobRunner } from "./ledger-job.ts";
import type { WorkerMetrics } from "./metrics.ts";

export interface LedgerWorkerDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  clock: RedisClock;
  answers: AckLog;
  logger: Logger;
  metrics: WorkerMetrics;
  prefix: string;
  partitions: number;
  lockMs: number;
  stallCheckMs: number;
  pollMs: number;
  /** Most calls in one group-committed transaction. */
  maxBatch: number;
  /** TEST HOOK, the planted bug `reply-before-commit` (`planted-bugs.ts`). */
  replyBeforeCommit?: boolean;
}

/**
 * One BullMQ worker per partition, each taking one job at a time; the queues' global concurrency
 * of 1 extends that across every worker process. A job holds one process's callbacks for the
 * partition, in arrival order; `jobRunner` runs them. This file is the BullMQ wiring only.
 */
export function startLedgerWorkers(deps: LedgerWorkerDeps): Worker[] {
  const names = redisNames(deps.prefix);
  const { metrics, logger } = deps;
  const runJob = jobRunner(deps, new GroupCommit(deps));

  return Array.from({ length: deps.partitions }, (_, partition) => {
    const queue = names.ledgerQueue(partition);
    const process = (job: Job) => {
      const data = readLedgerJob(job.data, String(job.id));
      // The consumer span continues the producer's trace: one trace from HTTP request to MySQL.
      return inSpan(
        `${queue} process`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextFrom({ traceparent: data.traceparent }),
          attributes: {
            ...queueSpanAttributes("process", queue, String(job.id)),
            "messaging.batch.message_count": data.calls.length,
          },
        },
        async (span) => {
          logger.debug({ jobId: job.id, calls: data.calls.length }, "job start");
          const { allExpired } = await runJob(data, partition);
          logger.debug({ jobId: job.id, calls: data.calls.length }, "job done");
          if (allExpired) markFailed(span, "past its deadline");
          return "done";
        },
      );
    };
    const worker = new Worker(queue, process, {
      connection: deps.redis,
      prefix: names.bullPrefix(queue),
      concurrency: 1,
      lockDuration: deps.lockMs,
      stalledInterval: deps.stallCheckMs,
      drainDelay: deps.pollMs / 1000,
      // A stalled job may run once more: the ledger makes that a replay, and its deadline usually refuses it.
      maxStalledCount: 1,
    });
    worker.on("error", (error) => logger.error({ err: error, partition }, "partition worker error"));
    worker.on("failed", (job, error) => {
      metrics.jobsFailed.inc({ queue: "ledger" });
      logger.error({ err: error, partition, jobId: job?.id }, "ledger job failed");
    });
    worker.on("stalled", (jobId) => {
      metrics.jobsStalled.inc({ queue: "ledger" });
      logger.warn({ partition, jobId }, "ledger job stalled; taken back");
    });
    return worker;
  });
}
