import { Cluster, Redis, type RedisOptions } from "ioredis";

/** A single Redis server or a Redis Cluster: every queue, reply channel and heartbeat works on either. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: one server's URL, or (when set) the seed nodes of a Redis Cluster. */
export interface RedisTarget {
  url: string;
  clusterNodes?: Array<{ host: string; port: number }>;
}

const reconnectDelay = (attempt: number) => Math.min(50 * attempt, 1_000);

/**
 * An ioredis client for BullMQ and our own keys. `maxRetriesPerRequest: null` is what BullMQ
 * workers need (blocking commands must survive reconnects); commands of a disconnected client
 * wait for the reconnect instead of failing, and the callback deadline bounds that wait.
 *
 * A `subscriber` connection skips ioredis's ready check and client-info commands: under load the
 * ready check's INFO can be sent after our SUBSCRIBE, ioredis then refuses it ("subscriber mode"),
 * treats that as fatal, reconnects, and the process silently stops receiving its replies.
 *
 * With cluster nodes, a Cluster client: it discovers the masters from the seeds, sends each command
 * to the master of its key's slot, follows MOVED/ASK after a resharding or failover, and delivers
 * classic pub/sub (our reply channels) from any node.
 *
 * `failFast`, for a command-line tool: a Redis it cannot reach is an error within seconds, which the
 * tool reports, not a wait for a reconnect that may never come.
 */
export function createRedis(
  target: RedisTarget,
  name: string,
  options: { subscriber?: boolean; failFast?: boolean } = {},
): RedisClient {
  const retry = options.failFast ? () => null : reconnectDelay;
  const redisOptions: RedisOptions = {
    connectionName: name,
    maxRetriesPerRequest: options.failFast ? 1 : null,
    enableReadyCheck: !options.subscriber,
    disableClientInfo: options.subscriber === true,
    retryStrategy: retry,
    ...(options.failFast ? { connectTimeout: 5_000 } : {}),
  };
  if (target.clusterNodes && target.clusterNodes.length > 0) {
    return new Cluster(target.clusterNodes, {
      redisOptions,
      clusterRetryStrategy: retry,
      enableReadyCheck: !options.subscriber,
    });
  }
  return new Redis(target.url, redisOptions);
}
