import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { openTestLedger, type TestLedger } from "@wallet/ledger/testing/test-ledger";
import { harnessPath } from "@wallet/system-tests/harness/env";
import { type AppProcess, startApp, stopApp } from "@wallet/system-tests/harness/processes/app-process";
import { testTenants } from "@wallet/system-tests/harness/system";
import { FaultProxy } from "../proxy/fault-proxy.ts";
import { MariaDbServer } from "../servers/mariadb-server.ts";
import { RedisServer } from "../servers/redis-server.ts";

export { testTenants };
export type TestTenant = (typeof testTenants)[number];
export const operatorToken = "faults-operator-token-93b1";

/**
 * The database a system runs on: one MariaDB server by default; a replicated pair or a cluster
 * (`src/servers/`) for the failover scenarios. `primary` is where the wallet writes first; a failover
 * moves it with `FaultSystem.moveDatabase`.
 */
export interface Database {
  primary: MariaDbServer;
  stop(): Promise<void>;
}

export async function singleServer(dir: string): Promise<Database> {
  const primary = await MariaDbServer.start(dir);
  return { primary, stop: () => primary.stop() };
}

export interface FaultSystemOptions {
  /** The servers to run on (`singleServer` unless given). */
  database?: (dir: string) => Promise<Database>;
  partitions?: number;
  deadlineMs?: number;
  /** Extra environment for every app. */
  env?: Record<string, string>;
  /** How long an app may take to boot (the launcher's 20 s unless given). */
  startTimeoutMs?: number;
}

/**
 * A whole system on servers of its own: a MariaDB and a Redis process in a temporary folder, a
 * fault proxy in front of each (the apps only ever reach them through it), and one in front of the
 * gateway (the load balancer the platform calls). Faults are injected by signalling the servers
 * or the apps, or by turning the proxies.
 */
export class FaultSystem {
  readonly processes: AppProcess[] = [];
  readonly prefix = "faults";
  /** The gateway the front proxy sends to; replaced when a test restarts it. */
  gateway: AppProcess | undefined;
  front: FaultProxy | undefined;
  /** The server the wallet writes to now: the database's primary until a failover moves it. */
  mariadb: MariaDbServer;

  private constructor(
    readonly dir: string,
    readonly database: Database,
    readonly redis: RedisServer,
    readonly dbProxy: FaultProxy,
    readonly redisProxy: FaultProxy,
    /** Never faulted: the test's own way to the current primary, which a failover moves too. */
    private readonly ledgerProxy: FaultProxy,
    /** The test's own connection: invariants are read past the faults. */
    readonly ledger: TestLedger,
    private readonly options: FaultSystemOptions,
  ) {
    this.mariadb = database.primary;
  }

  static async start(options: FaultSystemOptions = {}): Promise<FaultSystem> {
    const dir = await mkdtemp(`${tmpdir()}/wallet-faults-`);
    const [database, redis] = await Promise.all([
      (options.database ?? singleServer)(dir),
      RedisServer.start(dir),
    ]);
    const { primary } = database;
    const [dbProxy, redisProxy, ledgerProxy] = await Promise.all([
      FaultProxy.start(primary.port),
      FaultProxy.start(redis.port),
      FaultProxy.start(primary.port),
    ]);
    const ledger = await openTestLedger(primary.url("", ledgerProxy.port));
    return new FaultSystem(dir, database, redis, dbProxy, redisProxy, ledgerProxy, ledger, options);
  }

  /**
   * What a failover tool does to the wallet (a virtual IP or a proxy such as MaxScale moved): every
   * new connection goes to `server`, and every open one is cut, as the old primary's death or fencing
   * cuts them. The apps are neither restarted nor reconfigured.
   */
  moveDatabase(server: MariaDbServer): void {
    this.mariadb = server;
    for (const proxy of [this.dbProxy, this.ledgerProxy]) {
      proxy.retarget(server.port);
      proxy.resetAll();
    }
  }

  /** How long the gateway may hold a callback before answering 503. */
  get deadlineMs(): number {
    return this.options.deadlineMs ?? 2000;
  }

  /**
   * The URL the apps use: the database's runtime user (least privilege, as in production: a fenced,
   * read-only server refuses its writes), through the proxy.
   */
  get appDatabaseUrl(): string {
    const url = new URL(this.ledger.url);
    url.port = String(this.dbProxy.port);
    return url.toString();
  }

  /** The wallet's base URL as the platform sees it. */
  get walletUrl(): string {
    if (!this.front) throw new Error("no gateway started");
    return `http://127.0.0.1:${this.front.port}`;
  }

  appEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: harnessPath,
      DATABASE_URL: this.appDatabaseUrl,
      REDIS_URL: this.redis.url(this.redisProxy.port),
      REDIS_PREFIX: this.prefix,
      TENANTS: JSON.stringify(testTenants),
      LEDGER_PARTITIONS: String(this.options.partitions ?? 8),
      CALLBACK_DEADLINE_MS: String(this.deadlineMs),
      DB_POOL_SIZE: "8",
      METRICS_PORT: "0",
      OPERATOR_API_TOKEN: operatorToken,
      // Outbox rows published to a Redis that then lost them are published again after this long.
      OUTBOX_SWEEP_EVERY_MS: "1000",
      OUTBOX_SWEEP_AGE_SECONDS: "3",
      LOG_LEVEL: "info",
      ...this.options.env,
      ...extra,
    };
  }

  private spawn(app: string, env: Record<string, string>, ready: string, nodeArgs?: string[]) {
    return startApp({
      name: app,
      cwd: `apps/${app}`,
      env,
      ready,
      nodeArgs,
      startTimeoutMs: this.options.startTimeoutMs,
      track: (proc) => this.processes.push(proc),
    });
  }

  startWorker(env: Record<string, string> = {}, nodeArgs?: string[]): Promise<AppProcess> {
    return this.spawn("worker", this.appEnv(env), "worker serving", nodeArgs);
  }

  /** A gateway; the front proxy sends every new connection to it from now on. */
  async startGateway(env: Record<string, string> = {}, nodeArgs?: string[]): Promise<AppProcess> {
    const gateway = await this.spawn(
      "gateway",
      this.appEnv({ GATEWAY_PORT: "0", ...env }),
      "gateway listening",
      nodeArgs,
    );
    const port = gateway.port ?? 0;
    if (this.front) this.front.retarget(port);
    else this.front = await FaultProxy.start(port);
    this.gateway = gateway;
    return gateway;
  }

  startOperatorApi(env: Record<string, string> = {}): Promise<AppProcess> {
    return this.spawn(
      "operator-api",
      this.appEnv({ OPERATOR_API_PORT: "0", ...env }),
      "operator API listening",
    );
  }

  /** The platform simulator calling the front proxy, with the contract's retry policy shrunk to seconds. */
  startPlatformSim(env: Record<string, string> = {}): Promise<AppProcess> {
    const operators = testTenants.map((tenant) => ({ ...tenant, walletUrl: this.walletUrl }));
    return this.spawn(
      "platform-sim",
      this.appEnv({
        PLATFORM_SIM_PORT: "0",
        SIM_OPERATORS: JSON.stringify(operators),
        SIM_RETRY_BASE_MS: "100",
        SIM_RETRY_MAX_MS: "1000",
        SIM_RETRY_JITTER_MS: "50",
        // Enough attempts to outlast every fault here: the platform never gives up on a callback.
        SIM_RETRY_ATTEMPTS: "60",
        SIM_CALLBACK_TIMEOUT_MS: "4000",
        ...env,
      }),
      "platform simulator listening",
    );
  }

  stop(proc: AppProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    return stopApp(proc, signal);
  }

  /** Every line every app wrote, the killed ones' included. */
  allLogs(): string[] {
    return this.processes.flatMap((proc) => proc.logs);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.processes.map((proc) => stopApp(proc, "SIGKILL")));
    await this.ledger.drop().catch(() => {});
    await Promise.all(
      [this.front, this.dbProxy, this.redisProxy, this.ledgerProxy].map((proxy) => proxy?.close()),
    );
    await Promise.all([this.database.stop(), this.redis.stop()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
