import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { type AppProcess, startApp } from "@wallet/system-tests/harness/processes/app-process";
import { benchApp, benchTenant, productEnv, startGateway, startWorker } from "./product.ts";

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
  apps: AppProcess[];
}

export interface SideSettings {
  /** The product's database, Redis, prefix and partitions. */
  product: Parameters<typeof productEnv>[0];
  referenceDatabaseUrl: string;
  /** Extra environment for an experiment (`BENCH_GATEWAY_ENV`, `BENCH_WORKER_ENV`). */
  gatewayEnv: Record<string, string>;
  workerEnv: Record<string, string>;
  profileDir?: string;
}

export async function startSide(side: Side, settings: SideSettings): Promise<StartedSide> {
  const { profileDir } = settings;
  // The reference and the floor check the same tenant's signatures as the product.
  const keys = { ...inheritedEnv(), PUBLIC_KEY: benchTenant.publicKey, SECRET_KEY: benchTenant.secretKey };
  if (side === "reference") {
    const app = await startApp({
      ...benchApp,
      name: "reference",
      cwd: "bench",
      entry: "src/reference/main.ts",
      env: { ...keys, REFERENCE_DATABASE_URL: settings.referenceDatabaseUrl },
      ready: "reference wallet listening",
      cpuProfileDir: profileDir,
    });
    return { side, target: `http://127.0.0.1:${app.port}`, apps: [app] };
  }
  if (side === "floor") {
    const app = await startApp({
      ...benchApp,
      name: "floor",
      cwd: "bench",
      entry: "src/floor/main.ts",
      env: keys,
      ready: "floor listening",
    });
    return { side, target: `http://127.0.0.1:${app.port}`, apps: [app] };
  }
  const env = productEnv(settings.product);
  const worker = await startWorker({ ...env, ...settings.workerEnv }, "worker", profileDir);
  const gateway = await startGateway({ ...env, ...settings.gatewayEnv }, profileDir);
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
