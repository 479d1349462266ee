import { Redis } from "ioredis";

/**
 * An ioredis client for BullMQ and our own keys. `maxRetriesPerRequest: null` is what BullMQ
 * workers need (blocking commands must survive reconnects); commands of a disconnected client
 * wait for the reconnect instead of failing, and the callback deadline bounds that wait.
 */
export function createRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (attempt) => Math.min(50 * attempt, 1_000),
  });
}
