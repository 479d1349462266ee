import { randomUUID } from "node:crypto";
import { type LedgerCall, type OutcomeReply, redisNames } from "@wallet/contracts/jobs";
import {
  contextFrom,
  currentTraceparent,
  inSpan,
  linksTo,
  queueSpanAttributes,
  SpanKind,
} from "@wallet/telemetry/spans";
import type { PartitionQueues } from "./partitions.ts";
import type { RedisClock } from "./redis-clock.ts";
import type { ReplyChannel } from "./reply-channel.ts";

/** Time kept back from the call's deadline for the reply to travel to the gateway. */
const REPLY_MARGIN_MS = 50;

export interface DispatchRequest {
  partition: number;
  job: Pick<LedgerCall, "op" | "tenantId" | "rawBody" | "bodySha256" | "closeRefusal" | "storedClose">;
  /** Milliseconds left of the callback's deadline. */
  budgetMs: number;
}

/**
 * What a gateway needs from the ledger: run this call, answer within the budget or `undefined`.
 * The queued `Dispatcher` is the product; tests and tools may call the ledger another way.
 */
export interface LedgerCaller {
  call(request: DispatchRequest): Promise<OutcomeReply | undefined>;
}

interface Pending {
  call: LedgerCall;
  reply: Promise<OutcomeReply | undefined>;
  /** Answered, or its deadline passed: a call that is done is never sent. */
  done: boolean;
  /** Redis refused its job outright (before the deadline). */
  failed?: { error: unknown };
}

/** One partition as this process sees it: is a job of ours on it, and what waits for the next. */
interface Lane {
  /** A job of ours on the partition is not yet answered. */
  sending: boolean;
  held: Pending[];
}

/**
 * Puts verified calls on their partition and waits for the worker's reply, or gives up at the
 * deadline. It keeps one job per partition in flight: a call for a partition whose job is still
 * running waits here and leaves with everything else that gathered, in arrival order, as the
 * next job, the moment the running one is answered. The partition would run them one after the
 * other anyway (global concurrency 1), so nothing waits longer, and under load one job, one Redis
 * round trip and one worker wake-up serve several callbacks. With nothing running, a call leaves at once.
 */
export class Dispatcher implements LedgerCaller {
  private readonly lanes = new Map<number, Lane>();

  constructor(
    private readonly queues: PartitionQueues,
    private readonly replies: ReplyChannel,
    private readonly clock: RedisClock,
  ) {}

  async call({ partition, job, budgetMs }: DispatchRequest): Promise<OutcomeReply | undefined> {
    const now = this.clock.now();
    const call: LedgerCall = {
      ...job,
      id: randomUUID(),
      deadline: Math.floor(now + budgetMs - REPLY_MARGIN_MS),
      enqueuedAt: Math.floor(now),
      traceparent: currentTraceparent(),
    };
    // Registered before anything is sent, so a fast reply cannot arrive before anyone waits for it.
    const pending: Pending = { call, done: false, reply: Promise.resolve(undefined) };
    pending.reply = this.replies.expect(call.id, budgetMs).then((reply) => {
      pending.done = true;
      return reply;
    });
    const lane = this.laneOf(partition);
    lane.held.push(pending);
    if (!lane.sending) this.send(partition, lane);
    const answer = await pending.reply;
    // Redis refused the job outright (before the deadline): that is the gateway's own error, not a timeout.
    if (answer === undefined && pending.failed) throw pending.failed.error;
    return answer;
  }

  /** Calls held for the partitions whose job is still running (a gauge: callbacks waiting in this process). */
  get held(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.held.length;
    return count;
  }

  private laneOf(partition: number): Lane {
    let lane = this.lanes.get(partition);
    if (!lane) {
      lane = { sending: false, held: [] };
      this.lanes.set(partition, lane);
    }
    return lane;
  }

  private send(partition: number, lane: Lane): void {
    const batch = lane.held.filter((pending) => !pending.done);
    lane.held = [];
    lane.sending = batch.length > 0;
    if (!lane.sending) return;
    const jobId = randomUUID();
    const queue = redisNames("").ledgerQueue(partition);
    const traceparents = batch.map((pending) => pending.call.traceparent);
    // Not awaited on its own: a Redis that does not answer (frozen, partitioned, restarting) would hold
    // the enqueue past the callbacks' deadlines. Each call's reply timer bounds its wait instead; a job
    // that reaches Redis late carries the deadlines and its calls are refused unrun by the worker.
    void inSpan(
      `${queue} publish`,
      {
        kind: SpanKind.PRODUCER,
        parent: contextFrom({ traceparent: traceparents[0] }),
        links: linksTo(traceparents.slice(1)),
        attributes: {
          ...queueSpanAttributes("send", queue, jobId),
          "messaging.batch.message_count": batch.length,
        },
      },
      () =>
        this.queues.enqueue(partition, jobId, {
          calls: batch.map((pending) => pending.call),
          replyTo: this.replies.channel,
          traceparent: currentTraceparent(),
        }),
    ).catch((error: unknown) => {
      for (const pending of batch) {
        pending.failed = { error };
        this.replies.forget(pending.call.id);
      }
    });
    // The partition is ours again once every call of this job is answered or past its deadline.
    void Promise.all(batch.map((pending) => pending.reply)).then(() => this.send(partition, lane));
  }
}
