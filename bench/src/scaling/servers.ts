import { MariaDbServer } from "@wallet/faults/servers/mariadb-server";
import { RedisServer } from "@wallet/faults/servers/redis-server";
import { pidsNamed } from "../cpu.ts";
import { databaseName, type ScalingSettings } from "./settings.ts";

/**
 * What the machine's MariaDB sets that the fault suite's server leaves at MariaDB's defaults: the
 * redo log size and O_DIRECT decide how much each commit writes and flushes, which is what this
 * study counts. Every private MariaDB (the study's, the replica phase's primary and replica) gets them.
 */
export const machineInnoDb = ["--innodb-log-file-size=96M", "--innodb-flush-method=O_DIRECT"];

/** A server to stop when the run ends. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** Where the run's data lives and which pids are charged as MariaDB and Redis. */
export interface Servers {
  redisUrl: string;
  databaseUrl: string;
  mysqlPids: () => number[];
  redisPids: () => number[];
}

/**
 * `private`: a Redis and a MariaDB of this run's own (the fault suite's servers, on the machine's
 * InnoDB settings), so their counters and CPU are this run's alone; they are added to `started`.
 * `shared`: the configured URLs, and every MariaDB and Redis process on the machine is charged.
 */
export async function chooseServers(
  settings: ScalingSettings,
  dir: string,
  started: Stoppable[],
): Promise<Servers> {
  if (settings.SCALING_SERVERS === "shared") {
    return {
      redisUrl: settings.REDIS_URL,
      databaseUrl: new URL(databaseName, settings.DATABASE_URL).toString(),
      mysqlPids: () => pidsNamed("mariadbd", "mysqld"),
      redisPids: () => pidsNamed("redis-server"),
    };
  }
  const redis = await RedisServer.start(dir);
  started.push(redis);
  const mariadb = await MariaDbServer.start(dir, { extraArgs: machineInnoDb });
  started.push(mariadb);
  return {
    redisUrl: redis.url(),
    databaseUrl: mariadb.url(databaseName),
    mysqlPids: () => [mariadb.pid ?? 0],
    redisPids: () => [redis.pid ?? 0],
  };
}

/** Root on a private server: the suite's `wallet` user may not grant, and replication setup must. */
export function rootUrl(server: MariaDbServer, database = ""): string {
  return `mysql://root@127.0.0.1:${server.port}/${database}`;
}
