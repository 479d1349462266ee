import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RedisClient } from "@wallet/queue/redis";
import { type AppProcess, stopApp } from "@wallet/system-tests/harness/processes/app-process";
import { productEnv, startGateway, startWorker } from "../product.ts";
import { redisCounters } from "../server-stats.ts";

/** Workers and a gateway as production starts them, on a Redis prefix of their own. */
export interface System {
  prefix: string;
  partitions: number;
  workers: AppProcess[];
  gateway: AppProcess;
  /** Started beside the system by the operator phase, and stopped with it. */
  operatorApi?: AppProcess;
  workerMetricsPorts: number[];
  gatewayUrl: string;
  /** Redis connections: before the system, after its workers, after its gateway. */
  redisClients: { before: number; afterWorkers: number; afterGateway: number };
}

const metricsPortOf = (app: AppProcess): number => {
  if (app.metricsPort === undefined) throw new Error(`${app.name}: no metricsPort in its ready line`);
  return app.metricsPort;
};

/**
 * Starts and stops the systems a run measures, one at a time. Each gets a fresh Redis prefix, so no
 * system sees another's queues; the prefixes are kept for the clean-up of a shared Redis. The meter's
 * process groups read `running` to know whose CPU is whose (process-groups.ts).
 */
export class Systems {
  readonly prefixes: string[] = [];
  /** The system now running, if any. */
  running: System | undefined;
  private readonly prefixBase = `scaling-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly redisUrl: string,
    private readonly redis: RedisClient,
  ) {}

  /**
   * Workers first, then the gateway, counting Redis connections after each (a second apart, so
   * lazily opened ones are in): what each process costs the Redis connection budget.
   */
  async start(options: { partitions: number; workers: number; database: string }): Promise<System> {
    const prefix = `${this.prefixBase}-${this.prefixes.length}`;
    this.prefixes.push(prefix);
    const env = productEnv({
      databaseUrl: options.database,
      redisUrl: this.redisUrl,
      prefix,
      partitions: options.partitions,
    });
    const before = (await redisCounters(this.redis)).clients;
    const workers: AppProcess[] = [];
    for (let index = 0; index < options.workers; index++)
      workers.push(await startWorker(env, `worker-${index}`));
    await sleep(1_000);
    const afterWorkers = (await redisCounters(this.redis)).clients;
    const gateway = await startGateway(env);
    await sleep(1_000);
    const afterGateway = (await redisCounters(this.redis)).clients;
    this.running = {
      prefix,
      partitions: options.partitions,
      workers,
      gateway,
      workerMetricsPorts: workers.map(metricsPortOf),
      gatewayUrl: `http://127.0.0.1:${gateway.port}`,
      redisClients: { before, afterWorkers, afterGateway },
    };
    return this.running;
  }

  async stop(system: System): Promise<void> {
    await stopApp(system.gateway);
    if (system.operatorApi) await stopApp(system.operatorApi);
    await Promise.all(system.workers.map((worker) => stopApp(worker)));
    if (this.running === system) this.running = undefined;
  }

  /** Stops the system still running, if a phase failed before stopping its own. */
  async stopRunning(): Promise<void> {
    if (this.running) await this.stop(this.running);
  }
}
