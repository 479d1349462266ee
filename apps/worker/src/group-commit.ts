import type { LedgerCall, LedgerReply } from "@wallet/contracts/jobs";
import { stringifyJson } from "@wallet/contracts/json";
import type { BatchRequest } from "@wallet/ledger/batch/requests";
import { type Settled as BatchSettled, runBatch } from "@wallet/ledger/batch/run-batch";
import type { LedgerContext } from "@wallet/ledger/context";
import type { Outcome } from "@wallet/ledger/outcome";
import type { RedisClient } from "@wallet/queue/redis";
import type { RedisClock } from "@wallet/queue/redis-clock";
import { publishReplies } from "@wallet/queue/reply-channel";
import type { Logger } from "@wallet/telemetry/logger";
import { contextFrom, inSpan, linksTo } from "@wallet/telemetry/spans";
import type { WorkerMetrics } from "./metrics.ts";

export interface GroupCommitDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  clock: RedisClock;
  logger: Logger;
  metrics: WorkerMetrics;
  /** Most calls one transaction takes; more wait for the next one. */
  maxBatch: number;
}

/**
 * A call ready for the group commit: decided already (a body that failed its schema) or a request
 * for the batch; `traceparent` is its job's span.
 */
export interface Gathered {
  call: LedgerCall;
  replyTo: string;
  traceparent?: string;
  work: { batch: BatchRequest } | { answered: Outcome };
}

/** A call's end: answered (the reply is already published), or refused unrun past its deadline. */
export type CallEnd = { expired: false; outcome: Outcome } | { expired: true; lateMs: number };

export const transientFailure: Outcome = {
  status: 503,
  body: stringifyJson({ code: 503, message: "temporarily unavailable; retry" }),
  replayed: false,
};

interface Waiting {
  gathered: Gathered;
  resolve: (end: CallEnd) => void;
  reject: (error: unknown) => void;
}

/**
 * The worker's group commit. Every partition hands the calls of its running job here; whatever has
 * gathered runs as ONE ledger transaction (`runBatch`), and the answers go back with one PUBLISH
 * per gateway. No timer: a batch forms by itself while the previous one commits, so a lone callback
 * starts at once, and the busier the worker, the fewer round trips each callback costs.
 */
export class GroupCommit {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(private readonly deps: GroupCommitDeps) {}

  /** Runs these calls (one job's, in order) in the next batch; resolves once each is answered. */
  submit(calls: Gathered[]): Promise<CallEnd[]> {
    const ends = calls.map(
      (gathered) =>
        new Promise<CallEnd>((resolve, reject) => {
          this.waiting.push({ gathered, resolve, reject });
        }),
    );
    if (!this.flushing) {
      this.flushing = true;
      // After this turn's I/O: jobs that arrived in the same read join the first batch.
      setImmediate(() => void this.drain());
    }
    return Promise.all(ends);
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      await this.flush(this.waiting.splice(0, this.deps.maxBatch));
    }
    this.flushing = false;
  }

  private async flush(batch: Waiting[]): Promise<void> {
    const { clock, metrics } = this.deps;
    const now = clock.now();
    // A call past its deadline is refused unrun: its gateway has answered 503, and the platform retries.
    const live = batch.filter((waiting) => {
      const { deadline } = waiting.gathered.call;
      if (now <= deadline) return true;
      waiting.resolve({ expired: true, lateMs: now - deadline });
      return false;
    });
    if (live.length === 0) return;
    metrics.batchSize.observe(live.length);
    const outcomes = await this.decide(live.map((waiting) => waiting.gathered));
    try {
      await publishGrouped(
        this.deps.redis,
        live.map((waiting, index) => ({
          gathered: waiting.gathered,
          outcome: outcomes[index] ?? transientFailure,
        })),
      );
    } catch (error) {
      for (const waiting of live) waiting.reject(error);
      return;
    }
    live.forEach((waiting, index) => {
      waiting.resolve({ expired: false, outcome: outcomes[index] ?? transientFailure });
    });
  }

  /** Each call's outcome: the batch's answers in order, 503 for a call the batch could not answer. */
  private async decide(calls: Gathered[]): Promise<Outcome[]> {
    const requests: BatchRequest[] = [];
    for (const { work } of calls) if ("batch" in work) requests.push(work.batch);
    const traceparents = calls.map((gathered) => gathered.traceparent);
    // One span for the transaction, under the first job's span and linked to every job's.
    const settled = await inSpan(
      "ledger batch",
      {
        parent: contextFrom({ traceparent: traceparents[0] }),
        links: linksTo([...new Set(traceparents)]),
        attributes: { "wallet.batch.size": requests.length },
      },
      () => runBatch(this.deps.ctx, requests),
    ).catch((error: unknown): BatchSettled[] => requests.map(() => ({ ok: false, error })));
    let next = 0;
    return calls.map(({ call, work }) => {
      if ("answered" in work) return work.answered;
      const result = settled[next++];
      if (result?.ok) return result.outcome;
      this.deps.logger.error({ err: result?.error, op: call.op }, "ledger verb failed");
      return transientFailure;
    });
  }
}

/** Publishes answers with one message per reply channel. */
export async function publishGrouped(
  redis: RedisClient,
  answered: Array<{ gathered: Pick<Gathered, "call" | "replyTo">; outcome: Outcome }>,
): Promise<void> {
  const byChannel = new Map<string, LedgerReply[]>();
  for (const { gathered, outcome } of answered) {
    const replies = byChannel.get(gathered.replyTo) ?? [];
    replies.push({
      id: gathered.call.id,
      status: outcome.status,
      body: outcome.body,
      replayed: outcome.replayed,
    });
    byChannel.set(gathered.replyTo, replies);
  }
  await Promise.all([...byChannel].map(([channel, replies]) => publishReplies(redis, channel, replies)));
}
