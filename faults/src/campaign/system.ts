import { fileURLToPath } from "node:url";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { FaultSystem, type FaultSystemOptions } from "../harness/fault-system.ts";
import { type LaunchedPlayer, launchPlayers } from "../harness/platform-load.ts";
import { FaultProxy } from "../proxy/fault-proxy.ts";
import { GaleraCluster } from "../servers/galera-cluster.ts";
import { campaignSimEnv } from "./workload/retry-policy.ts";

const skewClock = fileURLToPath(new URL("../faults/clock/skew-clock.ts", import.meta.url));

export interface CampaignSystemOptions extends FaultSystemOptions {
  workers?: number;
  players?: number;
  /** Extra environment for the workers only (a planted bug's switch). */
  workerEnv?: Record<string, string>;
}

/**
 * The whole system a campaign runs against, on servers of its own (`FaultSystem`): two workers, a
 * gateway behind the platform's proxy, the operator API behind one of its own (a restarted API is
 * reached at the same address), the platform simulator and its players. Every process can be
 * killed, frozen, restarted with a skewed clock and restarted plain, by role.
 * On a Galera cluster the two workers write through two nodes (`WorkerNodes`).
 */
export class CampaignSystem {
  /** The skew each role runs with now (0: none). */
  private readonly skews = new Map<string, number>();
  /**
   * The operator API its proxy sends to now. A start that timed out may still boot later, so "a live
   * operator-api process" is not "the one serving": the roles of one process are tracked by the one
   * their proxy targets (the gateway by `FaultSystem.gateway`).
   */
  private api: AppProcess;

  private constructor(
    readonly faults: FaultSystem,
    readonly operatorApiProxy: FaultProxy,
    readonly workers: WorkerNodes,
    readonly sim: AppProcess,
    readonly players: LaunchedPlayer[],
    private readonly options: CampaignSystemOptions,
    api: AppProcess,
  ) {
    this.api = api;
  }

  static async start(options: CampaignSystemOptions = {}): Promise<CampaignSystem> {
    const faults = await FaultSystem.start({
      // A campaign overlaps faults on a loaded machine: a process may take well over 20 s to boot.
      startTimeoutMs: 60_000,
      ...options,
      env: {
        // Retention runs under the load: applied outbox rows older than 20 s go, every 2 s.
        RETENTION_EVERY_MS: "2000",
        OUTBOX_RETENTION_DAYS: String(20 / 86_400),
        ...options.env,
      },
    });
    const workers = new WorkerNodes(faults);
    try {
      await workers.openSecondNode();
      await Promise.all(
        Array.from({ length: options.workers ?? 2 }, (_, index) =>
          thrice(() => workers.start(options.workerEnv, undefined, index % workers.proxies.length)),
        ),
      );
      await thrice(() => faults.startGateway());
      const api = await thrice(() => faults.startOperatorApi());
      const operatorApiProxy = await FaultProxy.start(api.port ?? 0);
      const sim = await thrice(() => faults.startPlatformSim(campaignSimEnv));
      const players = await launchPlayers(faults, sim, options.players ?? 12);
      return new CampaignSystem(faults, operatorApiProxy, workers, sim, players, options, api);
    } catch (error) {
      await workers.close();
      await faults.shutdown();
      throw error;
    }
  }

  get operatorApiUrl(): string {
    return `http://127.0.0.1:${this.operatorApiProxy.port}`;
  }

  /** The live processes of a role, oldest first. */
  live(role: string): AppProcess[] {
    return this.faults.processes.filter(
      (proc) => proc.name === role && proc.child.exitCode === null && proc.child.signalCode === null,
    );
  }

  /** The role's process a fault hits: its oldest live one (a worker: one of several). */
  victim(role: string): AppProcess | undefined {
    if (role === "gateway") return this.faults.gateway;
    if (role === "operator-api") return this.api;
    return this.live(role)[0];
  }

  /**
   * Starts one process of the role, with the role's current clock skew, behind its proxy: a gateway
   * behind the platform's, the operator API behind its own.
   */
  start(role: string, node?: number): Promise<AppProcess> {
    return thrice(() => this.startOnce(role, node));
  }

  private async startOnce(role: string, node?: number): Promise<AppProcess> {
    const skew = this.skews.get(role) ?? 0;
    const nodeArgs = skew === 0 ? undefined : ["--import", skewClock];
    const env: Record<string, string> = skew === 0 ? {} : { CLOCK_SKEW_MS: String(skew) };
    if (role === "gateway") return this.faults.startGateway(env, nodeArgs);
    if (role === "worker") return this.workers.start({ ...this.options.workerEnv, ...env }, nodeArgs, node);
    if (role === "operator-api") {
      const api = await this.faults.startOperatorApi(env);
      this.operatorApiProxy.retarget(api.port ?? 0);
      this.api = api;
      return api;
    }
    throw new Error(`no role ${role}`);
  }

  /** Replaces the role's victim with a process whose clock is `skewMs` off (0: its true clock again). */
  async restartSkewed(role: string, skewMs: number): Promise<void> {
    this.skews.set(role, skewMs);
    const old = this.victim(role);
    // A worker's replacement writes through the same node as the worker it replaces.
    await this.start(role, old && this.workers.nodeOf(old));
    if (old) await this.faults.stop(old, "SIGTERM");
  }

  /** Ensures the role has its number of live processes again (after a kill). */
  async heal(role: string): Promise<void> {
    if (role === "worker") {
      for (let live = this.live(role).length; live < (this.options.workers ?? 2); live++)
        await this.start(role);
      return;
    }
    const serving = this.victim(role);
    if (!serving || serving.child.exitCode !== null || serving.child.signalCode !== null)
      await this.start(role);
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.operatorApiProxy.close(), this.workers.close()]);
    await this.faults.shutdown();
  }
}

/**
 * A loaded machine may take longer than the launcher's 20 s to boot a process: two more tries before
 * a process that will not start is the campaign's problem (the last error is thrown). A process that
 * timed out is killed by the launcher's tracking with the rest at the end.
 */
async function thrice<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Where the workers write. One server: all through `FaultSystem`'s `dbProxy`. A Galera cluster:
 * through two nodes, each behind a proxy of its own (`proxies`: the `dbProxy` to node 1, where the
 * operator API, the gateway and the test's own connection go too; a second to node 2), a worker
 * started without a node given going to the one with fewer live workers.
 */
export class WorkerNodes {
  readonly proxies: FaultProxy[];
  /** Each worker's node: its proxy's index. */
  private readonly nodes = new Map<AppProcess, number>();

  constructor(private readonly faults: FaultSystem) {
    this.proxies = [faults.dbProxy];
  }

  /** On a Galera cluster, the second written node's proxy. */
  async openSecondNode(): Promise<void> {
    const { database } = this.faults;
    const second = database instanceof GaleraCluster ? database.nodes[1] : undefined;
    if (second) this.proxies.push(await FaultProxy.start(second.port));
  }

  nodeOf(worker: AppProcess): number | undefined {
    return this.nodes.get(worker);
  }

  /** A worker writing through `node` (the quietest node's proxy unless given). */
  async start(
    env: Record<string, string> = {},
    nodeArgs?: string[],
    node = this.quietest(),
  ): Promise<AppProcess> {
    const database: Record<string, string> = node === 0 ? {} : { DATABASE_URL: this.urlThrough(node) };
    const worker = await this.faults.startWorker({ ...env, ...database }, nodeArgs);
    this.nodes.set(worker, node);
    return worker;
  }

  private quietest(): number {
    const counts = this.proxies.map(() => 0);
    for (const [worker, node] of this.nodes)
      if (worker.child.exitCode === null && worker.child.signalCode === null)
        counts[node] = (counts[node] ?? 0) + 1;
    return counts.indexOf(Math.min(...counts));
  }

  /** The apps' database URL (the runtime user), through proxy `node`. */
  private urlThrough(node: number): string {
    const url = new URL(this.faults.appDatabaseUrl);
    url.port = String(this.proxies[node]?.port ?? this.faults.dbProxy.port);
    return url.toString();
  }

  async close(): Promise<void> {
    await Promise.all(this.proxies.slice(1).map((proxy) => proxy.close()));
  }
}
