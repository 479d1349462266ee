import { join } from "node:path";
import { mysqldExporterJob } from "@wallet/infra/mysqld-exporter";
import { rulesDir } from "@wallet/infra/promql";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { freePort } from "@wallet/system-tests/harness/processes/readiness";
import { FaultSystem, operatorToken } from "../harness/fault-system.ts";
import { asRoot } from "../servers/mariadb-server.ts";
import { createExporterUser, MysqldExporter } from "../servers/mysqld-exporter.ts";
import { PrometheusServer } from "../servers/prometheus-server.ts";
import { ReplicatedMariaDb } from "../servers/replicated-mariadb.ts";
import { AlertTimeline } from "./alert-timeline.ts";

export interface OperatorAnswer {
  status: number;
  json: Record<string, unknown>;
}

/**
 * How long the primary waits for its replica's acknowledgement before it falls back to asynchronous
 * replication (MariaDB's and MySQL's default: 10 s). 1 s holds the commits at most that long when the
 * replica stops, within the callbacks' 2 s deadline, and is still far above what an acknowledgement
 * takes on this machine under the suite's load.
 */
const semiSyncTimeoutMs = 1000;

/**
 * The system under a real Prometheus: a gateway, two workers and the operator API (in front of the
 * platform simulator) on servers of the suite's own, each on a fixed metrics port so a restarted
 * process comes back as the same target, as in a static Prometheus configuration; the ledger on a
 * primary with a semi-synchronous replica, a mysqld_exporter next to each (job `mysql`); a Prometheus
 * that scrapes them all and evaluates the repository's rules every `scrapeSeconds`; a poller of its alerts.
 */
export class ObservedSystem {
  readonly workers: AppProcess[] = [];
  private watching: { prometheus: PrometheusServer; timeline: AlertTimeline } | undefined;

  private constructor(
    readonly system: FaultSystem,
    /** The ledger's primary and its replica (`system.database`). */
    readonly replication: ReplicatedMariaDb,
    /** One mysqld_exporter per database server, as production runs them. */
    readonly exporters: MysqldExporter[],
    readonly ports: { gateway: number; operatorApi: number; workers: number[] },
    readonly sim: AppProcess,
    readonly api: AppProcess,
  ) {}

  /** The system's processes, not yet watched: `watch()` starts Prometheus. */
  static async start(): Promise<ObservedSystem> {
    const system = await FaultSystem.start({
      deadlineMs: 2000,
      database: (dir) => ReplicatedMariaDb.start(dir, { semiSync: true, semiSyncTimeoutMs }),
    });
    const replication = system.database;
    if (!(replication instanceof ReplicatedMariaDb)) throw new Error("not on a replicated database");
    await asRoot(replication.primary, createExporterUser);
    await replication.caughtUp();
    const exporters = await Promise.all([
      MysqldExporter.start(system.dir, "primary", replication.primary),
      MysqldExporter.start(system.dir, "replica", replication.replica),
    ]);
    const [gateway = 0, operatorApi = 0, ...workers] = await Promise.all(
      Array.from({ length: 4 }, () => freePort()),
    );
    const ports = { gateway, operatorApi, workers };
    const started = await Promise.all(
      workers.map((port) => system.startWorker({ METRICS_PORT: String(port) })),
    );
    await system.startGateway({ METRICS_PORT: String(gateway) });
    // The platform's resends outlast every fault here (each healed within about 70 s), as the contract's
    // real budget (5 resends, backoff up to 2 minutes) would: a platform that gave up on a bet we booked
    // leaves a round its CLOSE_ROUND cannot reconcile, and WalletReconciliationMismatch rightly pages.
    const sim = await system.startPlatformSim({ SIM_RETRY_ATTEMPTS: "300" });
    const api = await system.startOperatorApi({
      METRICS_PORT: String(operatorApi),
      PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}`,
    });
    const observed = new ObservedSystem(system, replication, exporters, ports, sim, api);
    observed.workers.push(...started);
    return observed;
  }

  /**
   * Starts Prometheus on the running system, with the repository's rules, and the alert poller. A
   * Prometheus started on an already warm system sees none of its start-up: a real one has watched
   * for hours, and its 30-minute and 6-hour SLO windows dilute a process's first slow seconds, which a
   * window holding only this run's minutes would not.
   */
  async watch(repoRoot: string, scrapeSeconds: number): Promise<void> {
    const prometheus = await PrometheusServer.start(this.system.dir, {
      jobs: [
        { job: "wallet-gateway", ports: [this.ports.gateway] },
        { job: "wallet-worker", ports: this.ports.workers },
        { job: "wallet-operator-api", ports: [this.ports.operatorApi] },
        { job: mysqldExporterJob, ports: this.exporters.map((exporter) => exporter.port) },
      ],
      ruleFiles: [join(repoRoot, rulesDir, "*.yml")],
      intervalSeconds: scrapeSeconds,
    });
    const timeline = new AlertTimeline(prometheus);
    timeline.start();
    this.watching = { prometheus, timeline };
  }

  get prometheus(): PrometheusServer {
    if (!this.watching) throw new Error("not watched yet: call watch()");
    return this.watching.prometheus;
  }

  get timeline(): AlertTimeline {
    if (!this.watching) throw new Error("not watched yet: call watch()");
    return this.watching.timeline;
  }

  /** Starts the worker of `slot` (again) on its metrics port. */
  async startWorker(slot: number, env: Record<string, string> = {}): Promise<void> {
    this.workers[slot] = await this.system.startWorker({
      METRICS_PORT: String(this.ports.workers[slot]),
      ...env,
    });
  }

  /** A rolling restart: one worker after the other, each back before the next goes. */
  async restartWorkers(env: Record<string, string> = {}): Promise<void> {
    for (const [slot, worker] of this.workers.entries()) {
      await this.system.stop(worker);
      await this.startWorker(slot, env);
    }
  }

  async startGateway(): Promise<void> {
    await this.system.startGateway({ METRICS_PORT: String(this.ports.gateway) });
  }

  /** A request to the operator API with its bearer token. */
  async operatorCall(method: string, path: string, body?: unknown): Promise<OperatorAnswer> {
    const response = await fetch(`http://127.0.0.1:${this.api.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  async stop(): Promise<void> {
    await this.watching?.timeline.stop();
    await this.watching?.prometheus.stop();
    await Promise.all(this.exporters.map((exporter) => exporter.stop()));
    await this.system.shutdown();
  }
}
