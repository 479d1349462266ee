import { redisNames } from "@wallet/contracts/jobs";
import { z } from "zod";
import { type Acknowledged, decodeAcknowledged, loggedCall } from "./ack-log.ts";
import { prefixesHolding } from "./key-prefixes.ts";
import type { RedisClient } from "./redis.ts";

/** A logged acknowledgement, with where and when it was logged. */
export interface LoggedAcknowledgement extends Acknowledged {
  partition: number;
  /** When the worker sent the answer (Redis time, ms). */
  answeredAt: number;
}

export interface AckLogPage {
  acknowledged: LoggedAcknowledgement[];
  /** Entries that are not the log's format (written by hand, or by another version): counted, never skipped silently. */
  unreadable: string[];
}

const calls = z.array(loggedCall);

/** The millisecond part of a stream entry id: when Redis added it, in its own time. */
const idTime = (id: string) => Number(id.split("-")[0]);

/** The partition count recorded under this prefix (the logs are one per partition); undefined when none is. */
export async function recordedPartitions(redis: RedisClient, prefix: string): Promise<number | undefined> {
  const count = Number(await redis.get(redisNames(prefix).partitionCount));
  return Number.isSafeInteger(count) && count > 0 ? count : undefined;
}

/** When the log began under this prefix (`AckLog.recordStart`, Redis ms); undefined when no worker records one. */
export async function ackLogSince(redis: RedisClient, prefix: string): Promise<number | undefined> {
  const since = Number(await redis.get(redisNames(prefix).ackLogSince));
  return Number.isSafeInteger(since) && since > 0 ? since : undefined;
}

/**
 * Up to when a partition's log lost entries (Redis ms): undefined when it lost none, so it holds every
 * acknowledgement of its partition since the log began. Trimming removes the oldest entries, so once
 * any went (`entries-added` above `length`) the log is whole from its oldest entry left on, and an
 * entry deleted by hand (`max-deleted-entry-id`) moves that later still. A Redis before 7.0 reports
 * neither: the oldest entry left is then taken as where the log starts. No stream: nothing was logged.
 */
export async function ackLogTrimmedTo(
  redis: RedisClient,
  prefix: string,
  partition: number,
): Promise<number | undefined> {
  const key = redisNames(prefix).ackLog(partition);
  if ((await redis.exists(key)) === 0) return undefined;
  const info = (await redis.xinfo("STREAM", key)) as unknown[];
  const field = (name: string) => info[info.indexOf(name) + 1];
  const first = field("first-entry") as [string, string[]] | null | undefined;
  const added = field("entries-added");
  const deleted = String(field("max-deleted-entry-id") ?? "0-0");
  const removed = added === undefined || Number(added) > Number(field("length"));
  const to = Math.max(removed && first ? idTime(first[0]) : 0, deleted === "0-0" ? 0 : idTime(deleted));
  return to > 0 ? to : undefined;
}

/** A partition's logged acknowledgements from `fromMs` (Redis time) to the log's end, a page of entries at a time. */
export async function* ackLogPages(
  redis: RedisClient,
  prefix: string,
  partition: number,
  fromMs: number,
  entriesPerPage = 200,
): AsyncGenerator<AckLogPage> {
  const key = redisNames(prefix).ackLog(partition);
  let start = String(Math.max(0, Math.floor(fromMs)));
  for (;;) {
    const entries = await redis.xrange(key, start, "+", "COUNT", entriesPerPage);
    const page: AckLogPage = { acknowledged: [], unreadable: [] };
    for (const [id, fields] of entries) {
      const read = readEntry(fields);
      if (!read) page.unreadable.push(id);
      else
        for (const call of read.calls)
          page.acknowledged.push({ ...decodeAcknowledged(call), partition, answeredAt: read.at });
    }
    if (entries.length > 0) yield page;
    const last = entries.at(-1);
    if (!last || entries.length < entriesPerPage) return;
    start = `(${last[0]}`;
  }
}

function readEntry(fields: string[]) {
  const values = new Map<string | undefined, string | undefined>();
  for (let at = 0; at < fields.length; at += 2) values.set(fields[at], fields[at + 1]);
  const field = (name: string) => values.get(name);
  const at = Number(field("at"));
  try {
    const parsed = calls.safeParse(JSON.parse(field("calls") ?? ""));
    return parsed.success && Number.isSafeInteger(at) ? { at, calls: parsed.data } : undefined;
  } catch {
    return undefined;
  }
}

/** The REDIS_PREFIXes holding an acknowledgement log (partition 0's): what to suggest for a prefix with none. */
export function prefixesWithAckLog(redis: RedisClient): Promise<string[]> {
  return prefixesHolding(redis, redisNames("").ackLog(0));
}
