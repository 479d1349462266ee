import { readFileSync } from "node:fs";
import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import { parseScrape, type Scrape, sampleSum } from "@wallet/telemetry/testing/scrape";
import { cpuSeconds } from "../cpu.ts";

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

/** The MySQL counters a scaling estimate needs (SHOW GLOBAL STATUS). */
export const mysqlKeys = [
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

/** Busy and total CPU seconds of the whole machine, from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((value) => Number(value) / 100);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  return { busy, total: busy + (idle ?? 0) + (iowait ?? 0) };
}

/** Sums of the worker histograms this study reads, over every worker scraped. */
export interface WorkerTimes {
  /** op → [sum of seconds, count] of wallet_ledger_job_duration_seconds. */
  jobs: Record<string, [number, number]>;
  /** wallet_ledger_queue_wait_seconds over every partition: [sum, count]. */
  queueWait: [number, number];
}

export async function workerTimes(metricsPorts: number[]): Promise<WorkerTimes> {
  const scrapes: Scrape[] = await Promise.all(
    metricsPorts.map(async (port) => {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      return parseScrape(await response.text());
    }),
  );
  const jobs: Record<string, [number, number]> = {};
  for (const op of ["auth", "withdraw", "deposit", "balance", "adjust"]) {
    const sum = scrapes.reduce(
      (total, s) => total + sampleSum(s, "wallet_ledger_job_duration_seconds_sum", { op }),
      0,
    );
    const count = scrapes.reduce(
      (total, s) => total + sampleSum(s, "wallet_ledger_job_duration_seconds_count", { op }),
      0,
    );
    jobs[op] = [sum, count];
  }
  const queueWait: [number, number] = [
    scrapes.reduce((total, s) => total + sampleSum(s, "wallet_ledger_queue_wait_seconds_sum"), 0),
    scrapes.reduce((total, s) => total + sampleSum(s, "wallet_ledger_queue_wait_seconds_count"), 0),
  ];
  return { jobs, queueWait };
}

export interface Snapshot {
  at: number;
  cpu: Record<string, number>;
  machine: { busy: number; total: number };
  redis: RedisCounters;
  mysql: MysqlCounters;
  workers: WorkerTimes;
}

/**
 * Reads everything at once: CPU seconds of each named group of processes (a process that exited keeps
 * its last reading), the machine's CPU, Redis and MySQL counters, the workers' histograms.
 */
export class Meter {
  private readonly lastSeen = new Map<number, number>();

  constructor(
    private readonly source: {
      groups: () => Record<string, number[]>;
      redis: RedisClient;
      db: Db;
      workerMetricsPorts: () => number[];
    },
  ) {}

  async snap(): Promise<Snapshot> {
    const cpu: Record<string, number> = {};
    for (const [name, pids] of Object.entries(this.source.groups())) {
      cpu[name] = pids.reduce((sum, pid) => {
        const seconds = cpuSeconds(pid) ?? this.lastSeen.get(pid) ?? 0;
        this.lastSeen.set(pid, seconds);
        return sum + seconds;
      }, 0);
    }
    const machine = machineCpu();
    const [redis, mysql, workers] = await Promise.all([
      redisCounters(this.source.redis),
      mysqlCounters(this.source.db),
      workerTimes(this.source.workerMetricsPorts()),
    ]);
    return { at: performance.now(), cpu, machine, redis, mysql, workers };
  }
}
