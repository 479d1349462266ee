import { Redis } from "ioredis";

/**
 * Deletes every key under `prefix` (queues, reply channels, heartbeats): what the end-to-end tests
 * and the benchmark leave behind, and what a Redis that lost its data looks like to a system.
 */
export async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
