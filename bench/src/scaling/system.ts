import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RedisClient } from "@wallet/queue/redis";
import { inheritedEnv } from "../env.ts";
import { type RunningApp, startApp, stopApp } from "../processes.ts";
import { benchTenant } from "../seed.ts";
import { redisCounters } from "./counters.ts";
import type { ProcessGroups } from "./process-groups.ts";

/** The apps' TENANTS: the benchmark's one tenant, whose keys sign every callback. */
const tenants = JSON.stringify([benchTenant]);

/** Workers and a gateway as production starts them, on a Redis prefix of their own. */
export interface System {
  prefix: string;
  partitions: number;
  workers: RunningApp[];
  gateway: RunningApp;
  operatorApi?: RunningApp;
  workerMetricsPorts: number[];
  gatewayUrl: string;
  operatorUrl?: string;
  /** Redis connections: before the system, after its workers, after its gateway. */
  redisClients: { before: number; afterWorkers: number; afterGateway: number };
}

/**
 * What every app of a system starts with: its servers, Redis prefix and partition count, and info
 * logs, because the ready lines that carry the ports are info.
 */
export function appEnv(options: { database: string; redisUrl: string; prefix: string; partitions: number }) {
  return {
    ...inheritedEnv(),
    LOG_LEVEL: "info",
    TENANTS: tenants,
    METRICS_PORT: "0",
    DATABASE_URL: options.database,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.prefix,
    LEDGER_PARTITIONS: String(options.partitions),
  };
}

const readyField = (app: RunningApp, ready: string, field: string): number => {
  const line = app.logs.find((entry) => entry.includes(ready));
  const value = line ? (JSON.parse(line) as Record<string, unknown>)[field] : undefined;
  if (typeof value !== "number") throw new Error(`${app.name}: no ${field} in its ready line`);
  return value;
};

/**
 * Starts and stops the systems a run measures, one at a time. Each gets a fresh Redis prefix, so no
 * system sees another's queues; the prefixes are kept for the clean-up of a shared Redis.
 */
export class Systems {
  readonly prefixes: string[] = [];
  private readonly prefixBase = `scaling-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly redisUrl: string,
    private readonly redis: RedisClient,
    private readonly groups: ProcessGroups,
  ) {}

  /**
   * Workers first, then the gateway, counting Redis connections after each (a second apart, so
   * lazily opened ones are in): what each process costs the Redis connection budget.
   */
  async start(options: { partitions: number; workers: number; database: string }): Promise<System> {
    const prefix = `${this.prefixBase}-${this.prefixes.length}`;
    this.prefixes.push(prefix);
    const shared = appEnv({ ...options, redisUrl: this.redisUrl, prefix });
    const before = (await redisCounters(this.redis)).clients;
    const workers: RunningApp[] = [];
    for (let index = 0; index < options.workers; index++) {
      workers.push(
        await startApp({ name: `worker-${index}`, cwd: "apps/worker", env: shared, ready: "worker serving" }),
      );
    }
    await sleep(1_000);
    const afterWorkers = (await redisCounters(this.redis)).clients;
    const gateway = await startApp({
      name: "gateway",
      cwd: "apps/gateway",
      env: { ...shared, GATEWAY_PORT: "0" },
      ready: "gateway listening",
    });
    await sleep(1_000);
    const afterGateway = (await redisCounters(this.redis)).clients;
    const system: System = {
      prefix,
      partitions: options.partitions,
      workers,
      gateway,
      workerMetricsPorts: workers.map((worker) => readyField(worker, "worker serving", "metricsPort")),
      gatewayUrl: `http://127.0.0.1:${gateway.port}`,
      redisClients: { before, afterWorkers, afterGateway },
    };
    this.groups.system = system;
    return system;
  }

  async stop(system: System): Promise<void> {
    await stopApp(system.gateway);
    if (system.operatorApi) await stopApp(system.operatorApi);
    await Promise.all(system.workers.map(stopApp));
    if (this.groups.system === system) this.groups.system = undefined;
  }

  /** Stops the system still running, if a phase failed before stopping its own. */
  async stopRunning(): Promise<void> {
    if (this.groups.system) await this.stop(this.groups.system);
  }
}
