import { redisNames } from "@wallet/contracts/jobs";
import type { RedisClient } from "./redis.ts";
import type { RedisClock } from "./redis-clock.ts";

/** How long a worker counts as serving after its last heartbeat. */
export const HEARTBEAT_FRESH_MS = 5_000;

/**
 * Worker liveness for the gateways' `/readyz`: each worker writes its id and the Redis time of
 * its last successful database check into one hash. A fresh entry means "a worker is serving and
 * MySQL answers it", so the gateway can report on MySQL without touching it.
 */
export async function beat(
  redis: RedisClient,
  prefix: string,
  workerId: string,
  clock: RedisClock,
): Promise<void> {
  await redis.hset(redisNames(prefix).workersHash, workerId, String(clock.now()));
}

export async function forget(redis: RedisClient, prefix: string, workerId: string): Promise<void> {
  await redis.hdel(redisNames(prefix).workersHash, workerId);
}

/** Workers with a fresh heartbeat; long-dead entries are removed on the way. */
export async function liveWorkers(redis: RedisClient, prefix: string, clock: RedisClock): Promise<string[]> {
  const key = redisNames(prefix).workersHash;
  const entries = await redis.hgetall(key);
  const now = clock.now();
  const live: string[] = [];
  for (const [id, at] of Object.entries(entries)) {
    const age = now - Number(at);
    if (age <= HEARTBEAT_FRESH_MS) live.push(id);
    else if (age > 60_000) await redis.hdel(key, id);
  }
  return live;
}
