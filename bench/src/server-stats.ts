import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import { type MysqlCounters, mysqlCounters, type RedisCounters, redisCounters } from "./scaling/counters.ts";

/**
 * `BENCH_SERVER_STATS=1`: what MariaDB and Redis did in a run's measured window (side effects
 * drained included), per callback: SHOW GLOBAL STATUS and INFO commandstats deltas. For finding
 * where a change's cost went, next to the CPU meter.
 */
export class ServerStats {
  private before?: Promise<{ mysql: MysqlCounters; redis: RedisCounters }>;

  constructor(
    private readonly db: Db,
    private readonly redis: RedisClient,
  ) {}

  start(): void {
    this.before = this.read();
  }

  async perCallback(callbacks: number): Promise<Record<string, number>> {
    const before = await this.before;
    if (!before) return {};
    const after = await this.read();
    const per = (delta: number) => Math.round((delta / callbacks) * 1000) / 1000;
    const result: Record<string, number> = {};
    for (const [key, value] of Object.entries(after.mysql))
      result[key] = per(value - (before.mysql[key as keyof MysqlCounters] ?? 0));
    for (const [command, calls] of Object.entries(after.redis.calls)) {
      const delta = calls - (before.redis.calls[command] ?? 0);
      if (delta > 0) result[`redis ${command}`] = per(delta);
    }
    return result;
  }

  private async read() {
    const [mysql, redis] = await Promise.all([mysqlCounters(this.db), redisCounters(this.redis)]);
    return { mysql, redis };
  }
}
