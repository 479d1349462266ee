import { type LedgerJob, ledgerJob, redisNames } from "@wallet/contracts/jobs";
import { stringifyJson } from "@wallet/contracts/json";
import { actionLabel } from "@wallet/contracts/wallet-request";
import type { LedgerContext } from "@wallet/ledger/context";
import type { Outcome } from "@wallet/ledger/outcome";
import type { RedisClient } from "@wallet/queue/redis";
import type { RedisClock } from "@wallet/queue/redis-clock";
import { publishReply } from "@wallet/queue/reply-channel";
import type { Logger } from "@wallet/telemetry/logger";
import { contextFrom, inSpan, markFailed, queueSpanAttributes, SpanKind } from "@wallet/telemetry/spans";
import { type Job, Worker } from "bullmq";
import type { WorkerMetrics } from "./metrics.ts";
import { resultOf, runCallback } from "./run-callback.ts";

export interface LedgerWorkerDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  clock: RedisClock;
  logger: Logger;
  metrics: WorkerMetrics;
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
  const { metrics } = deps;

  const run = async (job: Job<LedgerJob>, data: LedgerJob, partition: number): Promise<string> => {
    const waitedMs =
      data.enqueuedAt === undefined ? undefined : Math.max(0, deps.clock.now() - data.enqueuedAt);
    if (waitedMs !== undefined) metrics.queueWait.observe({ partition: String(partition) }, waitedMs / 1000);
    deps.logger.debug({ op: data.op, jobId: job.id, waitedMs }, "job start");
    let body: unknown;
    try {
      body = JSON.parse(data.rawBody);
    } catch {
      body = undefined; // the verb's validation answers 400
    }
    const labels = { op: data.op, action: actionLabel(body) };
    if (deps.clock.now() > data.deadline) {
      metrics.outcomes.inc({ ...labels, result: "expired", status: "none" });
      deps.logger.warn(
        { op: data.op, late: deps.clock.now() - data.deadline },
        "job past its deadline refused",
      );
      return "expired";
    }
    const stopTimer = metrics.jobDuration.startTimer({ op: data.op });
    let outcome: Outcome;
    try {
      outcome = await runCallback(deps.ctx, data, body);
    } catch (error) {
      deps.logger.error({ err: error, op: data.op }, "ledger verb failed");
      outcome = transientFailure;
    }
    stopTimer();
    metrics.outcomes.inc({ ...labels, result: resultOf(outcome), status: String(outcome.status) });
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
    const queue = names.ledgerQueue(partition);
    const process = (job: Job<LedgerJob>) => {
      const data = ledgerJob.parse(job.data);
      // The consumer span continues the gateway's trace: one trace from HTTP request to MySQL.
      return inSpan(
        `${queue} process`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextFrom({ traceparent: data.traceparent }),
          attributes: { ...queueSpanAttributes("process", queue, String(job.id)), "wallet.op": data.op },
        },
        async (span) => {
          const result = await run(job, data, partition);
          if (result === "expired") markFailed(span, "past its deadline");
          return result;
        },
      );
    };
    const worker = new Worker<LedgerJob>(queue, process, {
      connection: deps.redis,
      prefix: names.bullPrefix(queue),
      concurrency: 1,
      lockDuration: deps.lockMs,
      stalledInterval: deps.stallCheckMs,
      drainDelay: deps.pollMs / 1000,
      // A stalled job may run once more: the ledger makes that a replay, and its deadline usually refuses it.
      maxStalledCount: 1,
    });
    worker.on("error", (error) => deps.logger.error({ err: error, partition }, "partition worker error"));
    worker.on("failed", (job, error) => {
      metrics.jobsFailed.inc({ queue: "ledger" });
      deps.logger.error({ err: error, partition, jobId: job?.id }, "ledger job failed");
    });
    worker.on("stalled", (jobId) => {
      metrics.jobsStalled.inc({ queue: "ledger" });
      deps.logger.warn({ partition, jobId }, "ledger job stalled; taken back");
    });
    return worker;
  });
}
