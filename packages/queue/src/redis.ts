import { Redis } from "ioredis";

/**
 * An ioredis client for BullMQ and our own keys. `maxRetriesPerRequest: null` is what BullMQ
 * workers need (blocking commands must survive reconnects); commands of a disconnected client
 * wait for the reconnect instead of failing, and the callback deadline bounds that wait.
 *
 * A `subscriber` connection skips ioredis's ready check and client-info commands: under load the
 * ready check's INFO can be sent after our SUBSCRIBE, ioredis then refuses it ("subscriber mode"),
 * treats that as fatal, reconnects, and the process silently stops receiving its replies.
 */
export function createRedis(url: string, name: string, options: { subscriber?: boolean } = {}): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: null,
    enableReadyCheck: !options.subscriber,
    disableClientInfo: options.subscriber === true,
    retryStrategy: (attempt) => Math.min(50 * attempt, 1_000),
  });
}
