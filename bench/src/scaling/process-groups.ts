import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import { Meter } from "./counters.ts";
import type { Systems } from "./system.ts";

/**
 * The pids each snapshot charges CPU to, by group. They change during the run (systems start and
 * stop, a load process per run, the replica phase swaps in its primary), so groups are read at
 * every snapshot rather than fixed once. Which apps run is the `Systems`' to say, not ours.
 */
export class ProcessGroups {
  load: number[] = [];
  replica: number[] = [];

  constructor(
    public mysql: () => number[],
    private readonly redis: () => number[],
    private readonly systems: Systems,
  ) {}

  readonly all = (): Record<string, number[]> => {
    const system = this.systems.running;
    return {
      gateway: system ? [system.gateway.pid] : [],
      worker: system?.workers.map((worker) => worker.pid) ?? [],
      operatorApi: system?.operatorApi ? [system.operatorApi.pid] : [],
      mariadb: this.mysql(),
      replica: this.replica,
      redis: this.redis(),
      load: this.load,
      measurer: [process.pid],
    };
  };

  /** A meter over these groups, the running system's workers, `redis` and the MySQL server behind `db`. */
  meter(redis: RedisClient, db: Db): Meter {
    return new Meter({
      groups: this.all,
      redis,
      db,
      workerMetricsPorts: () => this.systems.running?.workerMetricsPorts ?? [],
    });
  }
}
