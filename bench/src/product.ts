import { inheritedEnv } from "@wallet/system-tests/harness/env";
import {
  type AppOptions,
  type AppProcess,
  startApp,
} from "@wallet/system-tests/harness/processes/app-process";

// The product's processes as production starts them, for `pnpm bench`'s queued side and the scaling
// study's systems alike, so both measure the same apps with the same settings.

/**
 * How the benchmark starts every process: 30 s to get ready (a loaded machine), only the last 200 log
 * lines kept (a long run), and the first warnings printed at once, so a run that hangs shows why.
 */
export const benchApp = {
  startTimeoutMs: 30_000,
  keepLines: 200,
  echoProblems: true,
} satisfies Partial<AppOptions>;

/** The product's one tenant in every run: its keys sign every callback the load sends. */
export const benchTenant = { operatorId: 1, publicKey: "bench-public-key", secretKey: "bench-secret-key" };

/**
 * What every app of the product starts with: its servers, Redis prefix and partition count on the
 * benchmark's one tenant (whose keys sign every callback), and info logs, because the ready lines
 * that carry the ports are info.
 */
export function productEnv(options: {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  partitions: number;
}): Record<string, string> {
  return {
    ...inheritedEnv(),
    LOG_LEVEL: "info",
    TENANTS: JSON.stringify([benchTenant]),
    METRICS_PORT: "0",
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.prefix,
    LEDGER_PARTITIONS: String(options.partitions),
  };
}

export function startWorker(
  env: Record<string, string>,
  name = "worker",
  cpuProfileDir?: string,
): Promise<AppProcess> {
  return startApp({ ...benchApp, name, cwd: "apps/worker", env, ready: "worker serving", cpuProfileDir });
}

/** On a port of its own choosing (read off its ready line) unless `env` names one. */
export function startGateway(env: Record<string, string>, cpuProfileDir?: string): Promise<AppProcess> {
  return startApp({
    ...benchApp,
    name: "gateway",
    cwd: "apps/gateway",
    env: { GATEWAY_PORT: "0", ...env },
    ready: "gateway listening",
    cpuProfileDir,
  });
}
