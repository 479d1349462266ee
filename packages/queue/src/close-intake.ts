import { randomUUID } from "node:crypto";
import {
  type CloseIntakeJob,
  closeIntakeJobOptions,
  type OutcomeReply,
  outcomeReply,
  redisNames,
} from "@wallet/contracts/jobs";
import { currentTraceparent } from "@wallet/telemetry/spans";
import { Queue } from "bullmq";
import { shortEventStream } from "./event-stream.ts";
import type { RedisClient } from "./redis.ts";
import type { RedisClock } from "./redis-clock.ts";
import type { ReplyChannel } from "./reply-channel.ts";

/**
 * A large close's bytes travel through Redis in pieces of this size: no command, job or key of the
 * close's size, and the intake reads (and judges) one piece per event-loop turn. Small enough that
 * the Redis client's reply buffers stay in the heap's ordinary allocations: with 64 KiB pieces and
 * more, reading an 8 MiB close raised the worker's resident memory by 15 MiB, with 32 KiB by none.
 */
export const closeBodyPieceBytes = 32 * 1024;
/** How long a close's bytes wait for the intake: far longer than any queue wait, then Redis drops them. */
const bodyTtlMs = 10 * 60_000;
/**
 * How long a large close's answer is kept for the platform's resends of the same bytes: its five
 * sends span about two minutes (5 s backoff doubling, at most 2 minutes apart).
 */
export const closeAnswerTtlSeconds = 15 * 60;

/** A stored answer: the status and bytes of the ledger's envelope. */
type StoredAnswer = Pick<OutcomeReply, "status" | "body">;

/** A large close's answer, kept for its resends (`closeAnswerTtlSeconds`). */
export async function storedCloseAnswer(
  redis: RedisClient,
  prefix: string,
  tenantId: number,
  bodySha256: string,
): Promise<StoredAnswer | undefined> {
  const stored = await redis.get(redisNames(prefix).closeAnswer(tenantId, bodySha256));
  if (stored === null) return undefined;
  const parsed = outcomeReply.pick({ status: true, body: true }).safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : undefined;
}

export async function storeCloseAnswer(
  redis: RedisClient,
  prefix: string,
  job: Pick<CloseIntakeJob, "tenantId" | "bodySha256">,
  answer: StoredAnswer,
): Promise<void> {
  const key = redisNames(prefix).closeAnswer(job.tenantId, job.bodySha256);
  await redis.set(
    key,
    JSON.stringify({ status: answer.status, body: answer.body }),
    "EX",
    closeAnswerTtlSeconds,
  );
}

/**
 * The sending side of the close intake (gateways, the operator API): a CLOSE_ROUND past the ordinary
 * body limit is not parsed here nor put in a ledger job. Its bytes go to Redis in pieces, a small job
 * names them, and the intake (a worker) reads, judges and stores the close a piece at a time, off
 * every partition, then answers on this process's reply channel. A resend of bytes already answered
 * gets the stored answer at once, without sending the bytes again. `undefined`: no answer within
 * the budget (the intake finishes the close all the same; the platform's resend gets its answer).
 */
export class CloseIntake {
  private readonly queue: Queue<CloseIntakeJob>;
  private readonly names: ReturnType<typeof redisNames>;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly replies: ReplyChannel,
    private readonly clock: RedisClock,
  ) {
    this.names = redisNames(prefix);
    const name = this.names.closeIntakeQueue;
    this.queue = new Queue<CloseIntakeJob>(name, {
      connection: redis,
      prefix: this.names.bullPrefix(name),
      ...shortEventStream,
    });
  }

  async call(request: {
    tenantId: number;
    raw: Buffer;
    bodySha256: string;
    bodyLimitBytes: number;
    budgetMs: number;
  }): Promise<OutcomeReply | undefined> {
    const id = randomUUID();
    const answered = await storedCloseAnswer(this.redis, this.prefix, request.tenantId, request.bodySha256);
    if (answered) return { id, ...answered, replayed: true };
    const now = this.clock.now();
    const pieces = Math.ceil(request.raw.length / closeBodyPieceBytes);
    const job: CloseIntakeJob = {
      id,
      tenantId: request.tenantId,
      bodySha256: request.bodySha256,
      bytes: request.raw.length,
      pieces,
      bodyLimitBytes: request.bodyLimitBytes,
      deadline: Math.floor(now + request.budgetMs),
      enqueuedAt: Math.floor(now),
      replyTo: this.replies.channel,
      traceparent: currentTraceparent(),
    };
    // Registered before anything is sent, so a fast answer cannot arrive before anyone waits for it.
    const reply = this.replies.expect(id, request.budgetMs);
    // Not awaited on its own: a Redis that does not answer would hold the close past its deadline;
    // the reply timer bounds the wait instead, and the job is added only once every piece is in.
    this.send(id, request.raw, pieces, job).catch(() => this.replies.forget(id));
    return reply;
  }

  private async send(id: string, raw: Buffer, pieces: number, job: CloseIntakeJob): Promise<void> {
    const key = this.names.closeBody(id);
    const pipeline = this.redis.pipeline();
    for (let at = 0; at < pieces; at++)
      pipeline.rpush(key, raw.subarray(at * closeBodyPieceBytes, (at + 1) * closeBodyPieceBytes));
    pipeline.pexpire(key, bodyTtlMs);
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
    await this.queue.add("close", job, { ...closeIntakeJobOptions, jobId: id });
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
