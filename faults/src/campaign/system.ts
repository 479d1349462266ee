import { fileURLToPath } from "node:url";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { FaultSystem, type FaultSystemOptions } from "../harness/fault-system.ts";
import { type LaunchedPlayer, launchPlayers } from "../harness/platform-load.ts";
import { FaultProxy } from "../proxy/fault-proxy.ts";
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
 */
export class CampaignSystem {
  /** The skew each role runs with now (0: none). */
  private readonly skews = new Map<string, number>();

  private constructor(
    readonly faults: FaultSystem,
    readonly operatorApiProxy: FaultProxy,
    readonly sim: AppProcess,
    readonly players: LaunchedPlayer[],
    private readonly options: CampaignSystemOptions,
  ) {}

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
    try {
      await Promise.all(
        Array.from({ length: options.workers ?? 2 }, () =>
          thrice(() => faults.startWorker(options.workerEnv)),
        ),
      );
      await thrice(() => faults.startGateway());
      const api = await thrice(() => faults.startOperatorApi());
      const operatorApiProxy = await FaultProxy.start(api.port ?? 0);
      const sim = await thrice(() => faults.startPlatformSim(campaignSimEnv));
      const players = await launchPlayers(faults, sim, options.players ?? 12);
      return new CampaignSystem(faults, operatorApiProxy, sim, players, options);
    } catch (error) {
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
    return role === "gateway" ? this.faults.gateway : this.live(role)[0];
  }

  /**
   * Starts one process of the role, with the role's current clock skew, behind its proxy: a gateway
   * behind the platform's, the operator API behind its own.
   */
  start(role: string): Promise<AppProcess> {
    return thrice(() => this.startOnce(role));
  }

  private async startOnce(role: string): Promise<AppProcess> {
    const skew = this.skews.get(role) ?? 0;
    const nodeArgs = skew === 0 ? undefined : ["--import", skewClock];
    const env: Record<string, string> = skew === 0 ? {} : { CLOCK_SKEW_MS: String(skew) };
    if (role === "gateway") return this.faults.startGateway(env, nodeArgs);
    if (role === "worker") return this.faults.startWorker({ ...this.options.workerEnv, ...env }, nodeArgs);
    if (role === "operator-api") {
      const api = await this.faults.startOperatorApi(env);
      this.operatorApiProxy.retarget(api.port ?? 0);
      return api;
    }
    throw new Error(`no role ${role}`);
  }

  /** Replaces the role's victim with a process whose clock is `skewMs` off (0: its true clock again). */
  async restartSkewed(role: string, skewMs: number): Promise<void> {
    this.skews.set(role, skewMs);
    const old = this.victim(role);
    await this.start(role);
    if (old) await this.faults.stop(old, "SIGTERM");
  }

  /** Ensures the role has its number of live processes again (after a kill). */
  async heal(role: string): Promise<void> {
    const wanted = role === "worker" ? (this.options.workers ?? 2) : 1;
    for (let live = this.live(role).length; live < wanted; live++) await this.start(role);
  }

  async shutdown(): Promise<void> {
    await this.operatorApiProxy.close();
    await this.faults.shutdown();
  }
}

/**
 * A loaded machine may take longer than the launcher's 20 s to boot a process: two more tries before
 * a process that will not start is the campaign's problem (the last error is thrown). A process that
 * timed out is killed by the launcher's tracking with the rest at the end.
 */
async function thrice(start: () => Promise<AppProcess>): Promise<AppProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
