import { ledgerOps } from "@wallet/contracts/jobs";
import type { Db } from "@wallet/ledger/db";
import type { RedisClient } from "@wallet/queue/redis";
import { parseScrape, type Scrape, sampleSum } from "@wallet/telemetry/testing/scrape";
import { GroupCpu, machineCpu } from "../cpu.ts";
import { type MysqlCounters, mysqlCounters, type RedisCounters, redisCounters } from "../server-stats.ts";

/** Sums of the worker histograms this study reads, over every worker scraped. */
interface WorkerTimes {
  /** op → [sum of seconds, count] of wallet_ledger_job_duration_seconds. */
  jobs: Record<string, [number, number]>;
  /** wallet_ledger_queue_wait_seconds over every partition: [sum, count]. */
  queueWait: [number, number];
}

async function workerTimes(metricsPorts: number[]): Promise<WorkerTimes> {
  const scrapes: Scrape[] = await Promise.all(
    metricsPorts.map(async (port) => {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      return parseScrape(await response.text());
    }),
  );
  const jobs: Record<string, [number, number]> = {};
  for (const op of ledgerOps) {
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
  private readonly groupCpu = new GroupCpu();

  constructor(
    private readonly source: {
      groups: () => Record<string, number[]>;
      redis: RedisClient;
      db: Db;
      workerMetricsPorts: () => number[];
    },
  ) {}

  async snap(): Promise<Snapshot> {
    const cpu = this.groupCpu.read(this.source.groups());
    // Steal counts as busy here: the study reports what else kept the machine busy (otherOnMachine).
    const { busy, steal, idle } = machineCpu();
    const machine = { busy: busy + steal, total: busy + steal + idle };
    const [redis, mysql, workers] = await Promise.all([
      redisCounters(this.source.redis),
      mysqlCounters(this.source.db),
      workerTimes(this.source.workerMetricsPorts()),
    ]);
    return { at: performance.now(), cpu, machine, redis, mysql, workers };
  }
}
