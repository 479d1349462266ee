import { createHash } from "node:crypto";
import { type OutcomeReply, redisNames } from "@wallet/contracts/jobs";
import { Cluster } from "ioredis";
import { z } from "zod";
import type { RedisClient } from "./redis.ts";
import type { RedisClock } from "./redis-clock.ts";
import { publishReplies, replyMessages } from "./reply-channel.ts";

/**
 * A money or close callback the platform was answered 200 for, as the acknowledgement log keeps it.
 * The log is what a failover to a replica that was behind cannot take: the ledger's newest commits
 * go with the old primary, the log of what the platform was told stays in Redis, and
 * `pnpm rounds:at-risk` lists each line of it the ledger no longer holds (docs/runbook.md).
 */
export interface Acknowledged {
  operatorId: number;
  providerTxId: string;
  /** BET, FREE_BET, WIN, FREE_BET_WIN, ROLL_BACK or CLOSE_ROUND. */
  action: string;
  roundId: string;
  /** The player; null for a CLOSE_ROUND, which is a round's. */
  userId: string | null;
  /**
   * What the callback asked to move, signed millis as text (bigint): a BET's stake negative, a WIN's,
   * FREE_BET_WIN's or ROLL_BACK's amount positive, 0 for FREE_BET and CLOSE_ROUND. The adjustment
   * that repairs its loss.
   */
  amount: string;
  /**
   * Answered with the stored answer of an earlier send. Logged all the same: that earlier answer may
   * never have left (its log write refused, no answer published), and then this 200 is the first.
   */
  replayed: boolean;
}

/** One answer of a batch: where it goes, its partition, and what it acknowledged, if anything. */
export interface Answer {
  replyTo: string;
  reply: OutcomeReply;
  partition: number;
  acknowledged?: Acknowledged;
}

/**
 * An entry's `calls` field: a JSON array with a tuple per callback, in this order. Tuples rather
 * than objects: the names would be most of the bytes Redis keeps for each callback.
 */
export const loggedCall = z.tuple([
  z.number().int().positive(),
  z.string(),
  z.string(),
  z.string(),
  z.string().nullable(),
  z.string().regex(/^-?\d+$/),
  z.union([z.literal(0), z.literal(1)]),
]);

export function encodeAcknowledged(call: Acknowledged): z.infer<typeof loggedCall> {
  const { operatorId, providerTxId, action, roundId, userId, amount, replayed } = call;
  return [operatorId, providerTxId, action, roundId, userId, amount, replayed ? 1 : 0];
}

export function decodeAcknowledged(tuple: z.infer<typeof loggedCall>): Acknowledged {
  const [operatorId, providerTxId, action, roundId, userId, amount, replayed] = tuple;
  return { operatorId, providerTxId, action, roundId, userId, amount, replayed: replayed === 1 };
}

/**
 * One script, not MULTI/EXEC: a transaction is discarded only when a command is refused as it is
 * queued (out of memory under `noeviction`: EXECABORT), while a command that fails as it runs (the
 * log's key holding another type: WRONGTYPE) fails alone and the PUBLISH after it still runs. A
 * script stops at the first `redis.call` that fails, so no answer is published unless every log
 * entry of its batch was written (both cases proved in `ack-log.int.test.ts` and
 * `faults/src/acks/ack-log-oom.int.test.ts`).
 * KEYS: the logs written. ARGV: the oldest entry id kept (MINID, ms), the answers' time (ms), one
 * entry's `calls` per key, then channel and message pairs.
 */
const logThenPublish = `
for i = 1, #KEYS do
  redis.call('XADD', KEYS[i], 'MINID', '~', ARGV[1], '*', 'at', ARGV[2], 'calls', ARGV[2 + i])
end
for i = 3 + #KEYS, #ARGV, 2 do
  redis.call('PUBLISH', ARGV[i], ARGV[i + 1])
end
return #KEYS
`;
const logThenPublishSha = createHash("sha1").update(logThenPublish).digest("hex");

export interface AckLogOptions {
  /** How long an entry is kept (ACK_LOG_SECONDS); 0 writes no log at all. */
  seconds: number;
  /** Redis time: when each answer was sent, and where the trim falls. */
  clock: Pick<RedisClock, "now">;
}

/**
 * The worker's answers, each batch's acknowledgements logged before any of its answers can reach a
 * gateway: per partition a capped stream (`redisNames.ackLog`), one entry per batch holding the
 * callbacks it answered 200, trimmed by time (entries older than `seconds`, by whole stream nodes)
 * as each is added. A batch that acknowledged nothing (refusals, reads) is only published.
 */
export class AckLog {
  private readonly names;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly options: AckLogOptions,
  ) {
    this.names = redisNames(prefix);
  }

  get enabled(): boolean {
    return this.options.seconds > 0;
  }

  /**
   * Records when the log began (`redisNames.ackLogSince`), unless a worker already did; a worker with
   * the log off removes it. At boot and every few heartbeats: a Redis emptied since gets a new start,
   * the time from which the log again holds everything, and a log turned off claims nothing. What
   * `rounds:at-risk` reads to know whether the log reaches back to a point (`ack-log-read.ts`).
   */
  async recordStart(): Promise<void> {
    const key = this.names.ackLogSince;
    if (this.enabled) await this.redis.set(key, String(Math.floor(this.options.clock.now())), "NX");
    else await this.redis.del(key);
  }

  /** Logs what the answers acknowledged, then publishes them; throws (nothing published) if the log refused. */
  async send(answers: Answer[]): Promise<void> {
    if (!this.enabled || !answers.some((answer) => answer.acknowledged)) {
      await publishReplies(this.redis, answers);
      return;
    }
    // A script touches one slot of a cluster, and each partition's log has its own: one script a partition there.
    const groups = this.redis instanceof Cluster ? byPartition(answers) : [answers];
    await Promise.all(groups.map((group) => this.logThenPublish(group)));
  }

  private async logThenPublish(answers: Answer[]): Promise<void> {
    if (!answers.some((answer) => answer.acknowledged)) {
      await publishReplies(this.redis, answers);
      return;
    }
    // Whole milliseconds: the clock's offset is a half-millisecond estimate, and MINID takes an integer.
    const now = Math.floor(this.options.clock.now());
    const entries = new Map<string, unknown[]>();
    for (const { partition, acknowledged } of answers) {
      if (!acknowledged) continue;
      const key = this.names.ackLog(partition);
      const calls = entries.get(key) ?? [];
      calls.push(encodeAcknowledged(acknowledged));
      entries.set(key, calls);
    }
    const keys = [...entries.keys()];
    const args = [
      String(Math.max(0, now - this.options.seconds * 1000)),
      String(now),
      ...[...entries.values()].map((calls) => JSON.stringify(calls)),
      ...replyMessages(answers).flat(),
    ];
    try {
      await this.redis.evalsha(logThenPublishSha, keys.length, ...keys, ...args);
    } catch (error) {
      // The server's script cache is empty after a restart or a failover: send the script itself once.
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      await this.redis.eval(logThenPublish, keys.length, ...keys, ...args);
    }
  }
}

function byPartition(answers: Answer[]): Answer[][] {
  const groups = new Map<number, Answer[]>();
  for (const answer of answers) {
    const group = groups.get(answer.partition) ?? [];
    group.push(answer);
    groups.set(answer.partition, group);
  }
  return [...groups.values()];
}
