import {
  ackLogPages,
  ackLogSince,
  ackLogTrimmedTo,
  prefixesWithAckLog,
  recordedPartitions,
} from "@wallet/queue/ack-log-read";
import { createRedis, type RedisClient } from "@wallet/queue/redis";
import type { Db } from "../db.ts";
import { type AcknowledgedCall, acknowledgedNotHeld } from "../reads/acknowledged-not-held.ts";

/**
 * How far before the point the log is read. The point is the database's clock, the log's times are
 * Redis's; and a transaction's answers carry the time they were decided, a moment before its commit,
 * so a commit just before the point can be stamped a little earlier. A minute covers both.
 */
export const leadMs = 60_000;

export interface AckLogReading {
  /** The logged callbacks answered 200 that the ledger does not hold. */
  notHeld: AcknowledgedCall[];
  /** Whether the log was read and reaches back past the point on every partition. */
  complete: boolean;
  /** What was read and how far it can be trusted, for the summary (one or two sentences). */
  summary: string;
  /** Each on a line of its own on stderr, before the summary: why the log cannot be trusted whole. */
  warnings: string[];
}

/**
 * `rounds:at-risk`'s read of the acknowledgement log (`@wallet/queue/ack-log`): every callback the
 * workers answered 200 from a minute before the point to the log's end, checked against the
 * ledger's stored answers page by page. Not read when no Redis is named; never claimed whole when a
 * partition's log starts after the point (trimmed by ACK_LOG_SECONDS, or Redis emptied since).
 */
export async function readAckLog(
  db: Db,
  target: { url: string; clusterNodes?: Array<{ host: string; port: number }>; prefix: string } | undefined,
  point: Date,
): Promise<AckLogReading> {
  if (!target)
    return unread(
      "The acknowledgement log was not read (REDIS_URL is not set, nor REDIS_CLUSTER_NODES).",
      [],
    );
  const redis = createRedis(target, "rounds-at-risk", { failFast: true });
  try {
    return await readFrom(db, redis, target.prefix, point);
  } catch (error) {
    const why = `could not read the acknowledgement log under REDIS_PREFIX "${target.prefix}": ${(error as Error).message}`;
    return unread(`The acknowledgement log was not read (${why}).`, [why]);
  } finally {
    redis.disconnect();
  }
}

async function readFrom(db: Db, redis: RedisClient, prefix: string, point: Date): Promise<AckLogReading> {
  const partitions = await recordedPartitions(redis, prefix);
  if (partitions === undefined) {
    const others = (await prefixesWithAckLog(redis)).filter((other) => other !== prefix);
    const why =
      `REDIS_PREFIX "${prefix}" holds nothing of the wallet's (no partition count): a wrong REDIS_PREFIX, or a Redis emptied since; ` +
      (others.length > 0
        ? `prefixes holding an acknowledgement log: ${others.map((other) => `"${other}"`).join(", ")}`
        : "no prefix on this Redis holds an acknowledgement log");
    return unread(`The acknowledgement log was not read (${why}).`, [why]);
  }
  const warnings: string[] = [];
  /** Why the log does not reach back to the point: "it began at …", "partition 1's starts at …". */
  const shortfalls: string[] = [];
  const from = point.getTime() - leadMs;
  const notHeld: AcknowledgedCall[] = [];
  let read = 0;
  const since = await ackLogSince(redis, prefix);
  if (since === undefined) {
    shortfalls.push("no start of it is recorded");
    warnings.push(
      `no start of the acknowledgement log is recorded under REDIS_PREFIX "${prefix}" (ACK_LOG_SECONDS=0 on the workers, ` +
        "or Redis emptied and no worker has run since): what it holds is read, but rounds may be found only by the other reasons",
    );
  } else if (since > point.getTime()) {
    shortfalls.push(`it began at ${iso(since)}`);
    warnings.push(
      `the acknowledgement log starts at ${iso(since)}, after the point (Redis emptied, or the log turned on, then): ` +
        "rounds played before it are found only by the other reasons",
    );
  }
  for (let partition = 0; partition < partitions; partition++) {
    const trimmedTo = await ackLogTrimmedTo(redis, prefix, partition);
    if (trimmedTo !== undefined && trimmedTo > point.getTime()) {
      shortfalls.push(`partition ${partition}'s starts at ${iso(trimmedTo)}`);
      warnings.push(
        `the acknowledgement log of partition ${partition} starts at ${iso(trimmedTo)}, after the point (older entries trimmed: ACK_LOG_SECONDS): ` +
          "rounds played before it are found only by the other reasons",
      );
    }
    for await (const page of ackLogPages(redis, prefix, partition, from)) {
      read += page.acknowledged.length;
      if (page.unreadable.length > 0)
        warnings.push(
          `partition ${partition}: ${page.unreadable.length} log entr(ies) not in the log's format, not read (${page.unreadable.join(", ")})`,
        );
      notHeld.push(...(await acknowledgedNotHeld(db, page.acknowledged)));
    }
  }
  const counted =
    `read from ${iso(from)} (a minute before the point) to its end: ${read} callback(s) answered 200, ` +
    `${notHeld.length} of them not in the ledger (listed as acknowledged_not_held)`;
  const what = `The acknowledgement log (REDIS_PREFIX "${prefix}", ${partitions} partition(s)) was ${counted}`;
  return shortfalls.length === 0
    ? {
        notHeld,
        complete: true,
        warnings,
        summary: `${what}; it reaches back past the point on every partition, so every round with a callback answered 200 since the point that the ledger lacks is listed.`,
      }
    : {
        notHeld,
        complete: false,
        warnings,
        summary: `${what}; but it does not reach back to the point (${shortfalls.join("; ")}): rounds played before it are found only by the other reasons.`,
      };
}

const iso = (ms: number) => new Date(ms).toISOString();

function unread(summary: string, warnings: string[]): AckLogReading {
  return { notHeld: [], complete: false, summary, warnings };
}
