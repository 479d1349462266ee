import { randomUUID } from "node:crypto";
import { type LedgerJob, type LedgerReply, redisNames } from "@wallet/contracts/jobs";
import { currentTraceparent, inSpan, queueSpanAttributes, SpanKind } from "@wallet/telemetry/spans";
import type { PartitionQueues } from "./partitions.ts";
import type { RedisClock } from "./redis-clock.ts";
import type { ReplyChannel } from "./reply-channel.ts";

/** Time kept back from the job's deadline for the reply to travel to the gateway. */
const REPLY_MARGIN_MS = 50;

export interface DispatchRequest {
  partition: number;
  job: Omit<LedgerJob, "deadline" | "replyTo" | "enqueuedAt" | "traceparent">;
  /** Milliseconds left of the callback's deadline. */
  budgetMs: number;
}

/**
 * What a gateway needs from the ledger: run this job, answer within the budget or `undefined`.
 * The queued `Dispatcher` is the product; the benchmark's direct baseline calls the verbs in process.
 */
export interface LedgerCaller {
  call(request: DispatchRequest): Promise<LedgerReply | undefined>;
}

/** Puts a verified callback on its partition and waits for the worker's reply, or gives up at the deadline. */
export class Dispatcher implements LedgerCaller {
  constructor(
    private readonly queues: PartitionQueues,
    private readonly replies: ReplyChannel,
    private readonly clock: RedisClock,
  ) {}

  async call({ partition, job, budgetMs }: DispatchRequest): Promise<LedgerReply | undefined> {
    const id = randomUUID();
    const reply = this.replies.expect(id, budgetMs);
    const now = this.clock.now();
    const deadline = Math.floor(now + budgetMs - REPLY_MARGIN_MS);
    const queue = redisNames("").ledgerQueue(partition);
    let failed: { error: unknown } | undefined;
    // Not awaited on its own: a Redis that does not answer (frozen, partitioned, restarting) would hold
    // the enqueue past the callback's deadline. The reply timer bounds the whole call instead; a job
    // that reaches Redis late carries its deadline and is refused unrun by the worker.
    void inSpan(
      `${queue} publish`,
      { kind: SpanKind.PRODUCER, attributes: queueSpanAttributes("send", queue, id) },
      () =>
        this.queues.enqueue(partition, id, {
          ...job,
          deadline,
          enqueuedAt: Math.floor(now),
          replyTo: this.replies.channel,
          traceparent: currentTraceparent(),
        }),
    ).catch((error: unknown) => {
      failed = { error };
      this.replies.forget(id);
    });
    const answer = await reply;
    // Redis refused the job outright (before the deadline): that is the gateway's own error, not a timeout.
    if (answer === undefined && failed) throw failed.error;
    return answer;
  }
}
