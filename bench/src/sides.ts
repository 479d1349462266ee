import { type RunningApp, startApp } from "./processes.ts";

/**
 * What the benchmark compares, each under the same load:
 * - `queued`: the product, the gateway and worker processes as production starts them;
 * - `reference`: a plain single-process wallet with a transaction per callback (src/reference/);
 * - `floor`: signature check and a JSON answer, no storage (src/floor/): the least any wallet spends.
 */
export const sides = ["queued", "reference", "floor"] as const;
export type Side = (typeof sides)[number];

export interface StartedSide {
  side: Side;
  target: string;
  apps: RunningApp[];
}

export interface SideSettings {
  /** Environment every process of ours starts from. */
  base: Record<string, string>;
  /** The product's database, Redis and prefix. */
  system: Record<string, string>;
  referenceDatabaseUrl: string;
  partitions: string;
  tenant: { publicKey: string; secretKey: string };
  gatewayEnv: Record<string, string>;
  workerEnv: Record<string, string>;
  profileDir?: string;
}

export async function startSide(side: Side, settings: SideSettings): Promise<StartedSide> {
  const { base, tenant, profileDir } = settings;
  const keys = { PUBLIC_KEY: tenant.publicKey, SECRET_KEY: tenant.secretKey };
  if (side === "reference") {
    const app = await startApp({
      name: "reference",
      cwd: "bench",
      entry: "src/reference/main.ts",
      env: { ...base, ...keys, REFERENCE_DATABASE_URL: settings.referenceDatabaseUrl },
      ready: "reference wallet listening",
      cpuProfileDir: profileDir,
    });
    return { side, target: `http://127.0.0.1:${app.port}`, apps: [app] };
  }
  if (side === "floor") {
    const app = await startApp({
      name: "floor",
      cwd: "bench",
      entry: "src/floor/main.ts",
      env: { ...base, ...keys },
      ready: "floor listening",
    });
    return { side, target: `http://127.0.0.1:${app.port}`, apps: [app] };
  }
  const shared = { ...base, ...settings.system, LEDGER_PARTITIONS: settings.partitions, LOG_LEVEL: "info" };
  const worker = await startApp({
    name: "worker",
    cwd: "apps/worker",
    env: { ...shared, ...settings.workerEnv },
    ready: "worker serving",
    cpuProfileDir: profileDir,
  });
  const gateway = await startApp({
    name: "gateway",
    cwd: "apps/gateway",
    env: { ...shared, GATEWAY_PORT: "0", ...settings.gatewayEnv },
    ready: "gateway listening",
    cpuProfileDir: profileDir,
  });
  return { side, target: `http://127.0.0.1:${gateway.port}`, apps: [worker, gateway] };
}

/**
 * Freezes (SIGSTOP) or thaws (SIGCONT) a side's processes: only the side under load runs, so the
 * machine's CPU meter charges no side for another's idle timers and polls.
 */
export function freeze(started: StartedSide, frozen: boolean): void {
  for (const app of started.apps) {
    if (app.child.exitCode === null) app.child.kill(frozen ? "SIGSTOP" : "SIGCONT");
  }
}
