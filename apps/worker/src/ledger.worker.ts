import { type LedgerCall, type LedgerJob, readLedgerJob, redisNames } from "@wallet/contracts/jobs";
import { actionLabel } from "@wallet/contracts/wallet-request";
import { inOrderRuns, planCallback } from "@wallet/ledger/batch/requests";
import { runAlone } from "@wallet/ledger/callbacks";
import type { LedgerContext } from "@wallet/ledger/context";
import type { RedisClient } from "@wallet/queue/redis";
import type { RedisClock } from "@wallet/queue/redis-clock";
import type { Logger } from "@wallet/telemetry/logger";
import {
  contextFrom,
  currentTraceparent,
  inSpan,
  markFailed,
  queueSpanAttributes,
  SpanKind,
} from "@wallet/telemetry/spans";
import { type Job, Worker } from "bullmq";
import {
  type CallEnd,
  type Gathered,
  GroupCommit,
  publishGrouped,
  transientFailure,
} from "./group-commit.ts";
import type { WorkerMetrics } from "./metrics.ts";
import { resultOf } from "./outcome-label.ts";

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
  /** Most calls in one group-committed transaction. */
  maxBatch: number;
}

/** A job's call with its parsed body and where it runs. */
interface Planned {
  call: LedgerCall;
  body: unknown;
  plan: ReturnType<typeof planCallback>;
}

/**
 * One BullMQ worker per partition, each taking one job at a time; the queues' global concurrency
 * of 1 extends that across every worker process. A job's calls (one process's callbacks for the
 * partition, in arrival order) go to the process's group commit, where the partitions' calls share
 * a transaction; a rare verb runs alone, after the calls before it and before those after it, so a
 * player's callbacks always apply in order. A call past its deadline is refused unrun: its gateway
 * has already answered 503 and the platform will retry it.
 */
export function startLedgerWorkers(deps: LedgerWorkerDeps): Worker[] {
  const names = redisNames(deps.prefix);
  const { metrics, logger, clock } = deps;
  const commit = new GroupCommit(deps);

  const plan = (call: LedgerCall, partition: number): Planned => {
    if (call.enqueuedAt !== undefined)
      metrics.queueWait.observe(
        { partition: String(partition) },
        Math.max(0, clock.now() - call.enqueuedAt) / 1000,
      );
    let body: unknown;
    try {
      body = JSON.parse(call.rawBody);
    } catch {
      body = undefined; // the verb's validation answers 400
    }
    // The job's span is active here: a CLOSE_ROUND's side effects link back to it.
    return { call, body, plan: planCallback({ ...call, body, traceparent: currentTraceparent() }) };
  };

  const runAloneCall = async (planned: Planned, job: LedgerJob): Promise<CallEnd> => {
    const { call } = planned;
    const now = clock.now();
    if (now > call.deadline) return { expired: true, lateMs: now - call.deadline };
    // Run in the job's span (active here): the verb's statements are its children.
    const outcome = await runAlone(deps.ctx, { ...call, body: planned.body }).catch((error: unknown) => {
      logger.error({ err: error, op: call.op }, "ledger verb failed");
      return transientFailure;
    });
    await publishGrouped(deps.redis, [{ gathered: { call, replyTo: job.replyTo }, outcome }]);
    return { expired: false, outcome };
  };

  /** The job's calls in order: runs of group-committed calls, and each rare verb on its own between them. */
  const runJob = async (job: LedgerJob, partition: number): Promise<Array<[Planned, CallEnd]>> => {
    const traceparent = currentTraceparent();
    const ends: Array<[Planned, CallEnd]> = [];
    const planned = job.calls.map((call) => plan(call, partition));
    for (const run of inOrderRuns(planned, (one) => one.plan.run === "alone")) {
      const [head] = run;
      if (head && head.plan.run === "alone") {
        ends.push([head, await runAloneCall(head, job)]);
        continue;
      }
      const gathered = run.map(({ call, plan: where }): Gathered => {
        if (where.run === "alone") throw new Error("a rare verb in a group-committed run");
        const work = where.run === "batch" ? { batch: where.request } : { answered: where.outcome };
        return { call, replyTo: job.replyTo, traceparent, work };
      });
      const settled = await commit.submit(gathered);
      run.forEach((one, index) => {
        ends.push([one, settled[index] as CallEnd]);
      });
    }
    return ends;
  };

  const count = (planned: Planned, end: CallEnd, startedAt: number) => {
    const { op } = planned.call;
    const labels = { op, action: actionLabel(planned.body) };
    if (end.expired) {
      metrics.outcomes.inc({ ...labels, result: "expired", status: "none" });
      logger.warn({ op, late: end.lateMs }, "call past its deadline refused");
      return;
    }
    metrics.jobDuration.observe({ op }, (performance.now() - startedAt) / 1000);
    metrics.outcomes.inc({ ...labels, result: resultOf(end.outcome), status: String(end.outcome.status) });
    for (const kind of end.outcome.anomalies ?? []) metrics.anomalies.inc({ kind });
  };

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
          const startedAt = performance.now();
          logger.debug({ jobId: job.id, calls: data.calls.length }, "job start");
          const ends = await runJob(data, partition);
          for (const [planned, end] of ends) count(planned, end, startedAt);
          logger.debug({ jobId: job.id, calls: data.calls.length }, "job done");
          if (ends.every(([, end]) => end.expired)) markFailed(span, "past its deadline");
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
