import { Cluster } from "ioredis";
import type { RedisClient } from "./redis.ts";

/**
 * The REDIS_PREFIXes under which a key ending in `suffix` exists, found by a SCAN of each server (each
 * master of a cluster): what a tool suggests when it was pointed at a prefix that holds nothing of
 * the wallet's (a wrong REDIS_PREFIX reads as "nothing there", which would be taken for an answer).
 */
export async function prefixesHolding(redis: RedisClient, suffix: string): Promise<string[]> {
  const servers = redis instanceof Cluster ? redis.nodes("master") : [redis];
  const prefixes = new Set<string>();
  for (const server of servers) {
    let cursor = "0";
    do {
      const [next, keys] = await server.scan(cursor, "MATCH", `*${suffix}`, "COUNT", 1000);
      cursor = next;
      for (const key of keys) if (key.endsWith(suffix)) prefixes.add(key.slice(0, -suffix.length));
    } while (cursor !== "0");
  }
  return [...prefixes].sort();
}
