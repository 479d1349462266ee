import type { LedgerCall } from "@wallet/contracts/jobs";
import { callBatchBytes, maxBatchBytes } from "@wallet/ledger/batch/batch-bytes";
import type { BatchRequest } from "@wallet/ledger/batch/requests";
import { runBatch } from "@wallet/ledger/batch/run-batch";
import type { OutcomeOrError } from "@wallet/ledger/calls/call";
import type { GroupPlan } from "@wallet/ledger/calls/plan";
import { settleRun } from "@wallet/ledger/calls/run-in-order";
import type { LedgerContext } from "@wallet/ledger/context";
import { isDatabaseRefused } from "@wallet/ledger/mysql-errors";
import { type Outcome, transientFailure } from "@wallet/ledger/outcome";
import type { AckLog, Answer } from "@wallet/queue/ack-log";
import type { RedisClient } from "@wallet/queue/redis";
import type { RedisClock } from "@wallet/queue/redis-clock";
import type { Logger } from "@wallet/telemetry/logger";
import { contextFrom, inSpan, linksTo } from "@wallet/telemetry/spans";
import { acknowledgedInBatch } from "./acknowledged.ts";
import type { WorkerMetrics } from "./metrics.ts";
import { repliesBeforeCommit } from "./planted-bugs.ts";

export interface GroupCommitDeps {
  ctx: LedgerContext;
  redis: RedisClient;
  clock: RedisClock;
  /** Where the answers go: published, each batch's acknowledgements logged first. */
  answers: AckLog;
  logger: Logger;
  metrics: WorkerMetrics;
  /** Most calls one transaction takes; more wait for the next one. */
  maxBatch: number;
  /**
   * Most bytes of its calls' weights (`callBatchBytes`) one transaction takes, at least one call:
   * `maxBatchBytes` (4 MiB), what the size budgets count on; a test passes less to see batches cut.
   */
  maxBatchBytes?: number;
  /** TEST HOOK, the planted bug `reply-before-commit` (`planted-bugs.ts`): answers sent before COMMIT. */
  replyBeforeCommit?: boolean;
}

/** A call for the group commit, its partition, where its answer goes, and its job's span (`traceparent`). */
export interface Gathered {
  call: LedgerCall;
  partition: number;
  replyTo: string;
  traceparent?: string;
  plan: GroupPlan;
}

/** A call's outcome (its reply already published), or its refusal unrun past its deadline. */
export type OutcomeOrExpiry = { expired: false; outcome: Outcome } | { expired: true; lateMs: number };

/**
 * A call past its deadline is refused unrun: its gateway has answered 503, and the platform resends
 * it. Not a CLOSE_ROUND (`close`): it moves no money and is its round's only report, so it is run
 * however late (its resend then gets the stored answer); refusing it for the time it waited would
 * refuse it on every send whenever the machine is that slow, and lose the round's effects for good.
 */
export function expiredAt(call: LedgerCall, now: number, close: boolean): OutcomeOrExpiry | undefined {
  return !close && now > call.deadline ? { expired: true, lateMs: now - call.deadline } : undefined;
}

/** A call's outcome, or, for one the ledger could not run, the 503 the platform resends (the error logged). */
export function outcomeOrRetry(logger: Logger, op: string, result: OutcomeOrError | undefined): Outcome {
  if (result?.ok) return result.outcome;
  // A fenced database (its server read-only) or a refused session was logged once: not each call refused meanwhile.
  if (!isDatabaseRefused(result?.error)) logger.error({ err: result?.error, op }, "ledger verb failed");
  return transientFailure;
}

/** A call's answer on its reply channel. */
export function replyOf(call: LedgerCall, replyTo: string, outcome: Outcome) {
  const { status, body, replayed } = outcome;
  return { replyTo, reply: { id: call.id, status, body, replayed } };
}

/** A group-committed call's answer, with its partition and what it acknowledges (the acknowledgement log). */
function answerOf({ call, replyTo, partition, plan }: Gathered, outcome: Outcome): Answer {
  return { ...replyOf(call, replyTo, outcome), partition, acknowledged: acknowledgedInBatch(plan, outcome) };
}

interface Waiting {
  gathered: Gathered;
  /** Its weight in a batch (`callBatchBytes`), counted once as it arrives. */
  bytes: number;
  resolve: (end: OutcomeOrExpiry) => void;
  reject: (error: unknown) => void;
}

/**
 * The worker's group commit. Every partition hands the calls of its running job here; whatever has
 * gathered (up to `maxBatch` calls and 4 MiB of their weights) runs as ONE ledger transaction
 * (`runBatch`), and the answers go back with one PUBLISH per gateway, after the callbacks answered
 * 200 are logged (`AckLog`, in the same script). No timer:
 * a batch forms by itself while the previous one commits, so a lone callback starts at once, and the
 * busier the worker, the fewer round trips each callback costs.
 */
export class GroupCommit {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(private readonly deps: GroupCommitDeps) {}

  /** Runs these calls (one job's, in order) in the next batch; resolves once each is answered. */
  submit(calls: Gathered[]): Promise<OutcomeOrExpiry[]> {
    const ends = calls.map(
      (gathered) =>
        new Promise<OutcomeOrExpiry>((resolve, reject) => {
          // Bytes of a string of at most 64 KiB (8 MiB closes never come here: they are in pieces).
          const bytes = callBatchBytes(Buffer.byteLength(gathered.call.rawBody));
          this.waiting.push({ gathered, bytes, resolve, reject });
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
      await this.flush(this.waiting.splice(0, this.nextBatchLength()));
    }
    this.flushing = false;
  }

  /**
   * How many of the waiting calls the next batch takes, in their order: at most `maxBatch`, and no
   * more than `maxBatchBytes` of their weights, but always the first. A running sum over the calls
   * the batch takes, each weighed when it arrived: the batch's packet stays under the servers'
   * smallest `max_allowed_packet` however large its calls (`batch-bytes.ts`).
   */
  private nextBatchLength(): number {
    const budget = Math.min(this.deps.maxBatchBytes ?? maxBatchBytes, maxBatchBytes);
    const most = Math.min(this.deps.maxBatch, this.waiting.length);
    let bytes = this.waiting[0]?.bytes ?? 0;
    let length = 1;
    while (length < most) {
      bytes += this.waiting[length]?.bytes ?? 0;
      if (bytes > budget) break;
      length += 1;
    }
    return length;
  }

  private async flush(batch: Waiting[]): Promise<void> {
    const { clock, metrics } = this.deps;
    const now = clock.now();
    const live = batch.filter((waiting) => {
      const { call, plan } = waiting.gathered;
      const expired = expiredAt(call, now, plan.run === "batch" && plan.request.kind === "CLOSE");
      if (expired) waiting.resolve(expired);
      return !expired;
    });
    if (live.length === 0) return;
    metrics.batchSize.observe(live.length);
    const outcomes = await this.decide(live.map((waiting) => waiting.gathered));
    try {
      await this.deps.answers.send(
        live.map(({ gathered }, index) => answerOf(gathered, outcomes[index] ?? transientFailure)),
      );
    } catch (error) {
      // Nothing was answered (the log refused its entry: Redis out of memory, its key of another
      // type): the gateways answer 503 at their deadline, and the resends get the stored answers.
      for (const waiting of live) waiting.reject(error);
      return;
    }
    live.forEach((waiting, index) => {
      waiting.resolve({ expired: false, outcome: outcomes[index] ?? transientFailure });
    });
  }

  /** Each call's outcome: the batch's answers in order, 503 for a call the batch could not answer. */
  private async decide(calls: Gathered[]): Promise<Outcome[]> {
    const traceparents = calls.map((gathered) => gathered.traceparent);
    // One span for the transaction, under the first job's span and linked to every job's.
    const settled = await settleRun(
      calls.map(({ plan }) => plan),
      (requests) =>
        inSpan(
          "ledger batch",
          {
            parent: contextFrom({ traceparent: traceparents[0] }),
            links: linksTo([...new Set(traceparents)]),
            attributes: { "wallet.batch.size": requests.length },
          },
          () => runBatch(this.contextFor(calls), requests),
        ).catch((error: unknown): OutcomeOrError[] => requests.map(() => ({ ok: false, error }))),
    );
    return calls.map(({ call }, index) => outcomeOrRetry(this.deps.logger, call.op, settled[index]));
  }

  /** The ledger context of a batch: the process's, unless the planted bug `reply-before-commit` is on. */
  private contextFor(calls: Gathered[]): LedgerContext {
    if (!this.deps.replyBeforeCommit) return this.deps.ctx;
    const gatheredOf = (request: BatchRequest) =>
      calls.find(({ plan }) => plan.run === "batch" && plan.request === request);
    return repliesBeforeCommit(this.deps.ctx, (requests, outcomes) =>
      this.deps.answers.send(
        requests.flatMap((request, index) => {
          const gathered = gatheredOf(request);
          const outcome = outcomes[index];
          return gathered && outcome ? [answerOf(gathered, outcome)] : [];
        }),
      ),
    );
  }
}
