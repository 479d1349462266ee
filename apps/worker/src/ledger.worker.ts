import { type LedgerJob, ledgerJob, redisNames } from "@wallet/contracts/jobs";
import { stringifyJson } from "@wallet/contracts/json";
import type { LedgerContext } from "@wallet/ledger/context";
import type { Outcome } from "@wallet/ledger/outcome";
import type { RedisClock } from "@wallet/queue/redis-clock";
import { publishReply } from "@wallet/queue/reply-channel";
import type { Logger } from "@wallet/telemetry/logger";
import { type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { runCallback } from "./run-callback.ts";

export interface LedgerWorkerDeps {
  ctx: LedgerContext;
  redis: Redis;
  clock: RedisClock;
  logger: Logger;
  prefix: string;
  partitions: number;
  lockMs: number;
  stallCheckMs: number;
  pollMs: number;
}

const transientFailure: Outcome = {
  status: 503,
  body: stringifyJson({ code: 503, message: "temporarily unavailable; retry" }),
  replayed: false,
};

/**
 * One BullMQ worker per partition, each taking one job at a time; the queues' global concurrency
 * of 1 extends that across every worker process. A job past its deadline is refused unrun: the
 * gateway has already answered 503 and the platform will retry it.
 */
export function startLedgerWorkers(deps: LedgerWorkerDeps): Worker[] {
  const names = redisNames(deps.prefix);
  const process = async (job: Job<LedgerJob>) => {
    const data = ledgerJob.parse(job.data);
    deps.logger.debug({ op: data.op, jobId: job.id, waitedMs: Date.now() - job.timestamp }, "job start");
    if (deps.clock.now() > data.deadline) {
      deps.logger.warn(
        { op: data.op, late: deps.clock.now() - data.deadline },
        "job past its deadline refused",
      );
      return "expired";
    }
    let outcome: Outcome;
    try {
      outcome = await runCallback(deps.ctx, data);
    } catch (error) {
      deps.logger.error({ err: error, op: data.op }, "ledger verb failed");
      outcome = transientFailure;
    }
    deps.logger.debug({ op: data.op, status: outcome.status, jobId: job.id }, "job done");
    await publishReply(deps.redis, data.replyTo, {
      id: String(job.id),
      status: outcome.status,
      body: outcome.body,
      replayed: outcome.replayed,
    });
    return "done";
  };
  return Array.from({ length: deps.partitions }, (_, partition) => {
    const worker = new Worker<LedgerJob>(names.ledgerQueue(partition), process, {
      connection: deps.redis,
      prefix: names.bullPrefix,
      concurrency: 1,
      lockDuration: deps.lockMs,
      stalledInterval: deps.stallCheckMs,
      drainDelay: deps.pollMs / 1000,
      // A stalled job may run once more: the ledger makes that a replay, and its deadline usually refuses it.
      maxStalledCount: 1,
    });
    worker.on("error", (error) => deps.logger.error({ err: error, partition }, "partition worker error"));
    worker.on("failed", (job, error) =>
      deps.logger.error({ err: error, partition, jobId: job?.id }, "ledger job failed"),
    );
    return worker;
  });
}
