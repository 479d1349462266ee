import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import { round } from "./stats.ts";

/** What Redis says it did: calls per command (scripts' inner calls included), bytes, clients. */
export interface RedisCounters {
  /** `total_commands_processed`: commands clients sent (an EVALSHA counts once). */
  commands: number;
  /** `INFO commandstats` calls per command, the commands run inside Lua scripts included. */
  calls: Record<string, number>;
  netIn: number;
  netOut: number;
  clients: number;
}

export async function redisCounters(redis: RedisClient): Promise<RedisCounters> {
  const field = (text: string, name: string) =>
    Number(new RegExp(`^${name}:(\\d+)`, "m").exec(text)?.[1] ?? 0);
  const [stats, commandstats, clients] = await Promise.all([
    redis.info("stats"),
    redis.info("commandstats"),
    redis.info("clients"),
  ]);
  const calls: Record<string, number> = {};
  for (const match of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (match[1] && match[2]) calls[match[1]] = Number(match[2]);
  }
  return {
    commands: field(stats, "total_commands_processed"),
    calls,
    netIn: field(stats, "total_net_input_bytes"),
    netOut: field(stats, "total_net_output_bytes"),
    clients: field(clients, "connected_clients"),
  };
}

/** The MySQL counters a cost per callback is read from (SHOW GLOBAL STATUS). */
const mysqlKeys = [
  "Questions",
  "Com_select",
  "Com_insert",
  "Com_update",
  "Com_delete",
  "Com_begin",
  "Com_commit",
  "Com_rollback",
  "Com_set_option",
  "Innodb_row_lock_waits",
  "Innodb_row_lock_time",
  "Innodb_deadlocks",
  "Innodb_data_fsyncs",
  "Innodb_log_writes",
  "Innodb_os_log_written",
  "Innodb_data_written",
  "Rows_read",
  "Handler_read_key",
  "Handler_read_next",
  "Bytes_received",
  "Bytes_sent",
  "Binlog_bytes_written",
] as const;
export type MysqlCounters = Record<(typeof mysqlKeys)[number], number>;

export async function mysqlCounters(db: Db): Promise<MysqlCounters> {
  const [rows] = (await db.execute("SHOW GLOBAL STATUS")) as unknown as [
    Array<{ Variable_name: string; Value: string }>,
  ];
  const all = new Map(rows.map((row) => [row.Variable_name, Number(row.Value)]));
  return Object.fromEntries(mysqlKeys.map((key) => [key, all.get(key) ?? 0])) as MysqlCounters;
}

/**
 * `BENCH_SERVER_STATS=1`: what MariaDB and Redis did in a run's measured window (side effects
 * drained included), per callback: SHOW GLOBAL STATUS and INFO commandstats deltas. For finding
 * where a change's cost went, next to the CPU meter. (The scaling study reads the same counters.)
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
    const per = (delta: number) => round(delta / callbacks, 3);
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
