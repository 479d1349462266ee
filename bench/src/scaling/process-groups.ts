import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import { Meter } from "./counters.ts";
import type { System } from "./system.ts";

/**
 * The pids each snapshot charges CPU to, by group. They change during the run (systems start and
 * stop, a load process per run, the replica phase swaps in its primary), so groups are read at
 * every snapshot rather than fixed once.
 */
export class ProcessGroups {
  /** The system now running, if any. */
  system: System | undefined;
  load: number[] = [];
  replica: number[] = [];

  constructor(
    public mysql: () => number[],
    private readonly redis: () => number[],
  ) {}

  readonly all = (): Record<string, number[]> => ({
    gateway: this.system ? [this.system.gateway.pid] : [],
    worker: this.system?.workers.map((worker) => worker.pid) ?? [],
    operatorApi: this.system?.operatorApi ? [this.system.operatorApi.pid] : [],
    mariadb: this.mysql(),
    replica: this.replica,
    redis: this.redis(),
    load: this.load,
    measurer: [process.pid],
  });

  /** A meter over these groups, the running system's workers, `redis` and the MySQL server behind `db`. */
  meter(redis: RedisClient, db: Db): Meter {
    return new Meter({
      groups: this.all,
      redis,
      db,
      workerMetricsPorts: () => this.system?.workerMetricsPorts ?? [],
    });
  }
}
