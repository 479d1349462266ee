import { randomUUID } from "node:crypto";
import { relative } from "node:path";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { dropDatabase } from "@wallet/ledger/migrate";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { partitionsEnvShape } from "@wallet/queue/redis-env";
import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { type AppProcess, startApp, stopApp } from "@wallet/system-tests/harness/processes/app-process";
import { launch, repoRoot } from "@wallet/system-tests/harness/processes/launch";
import type { Player } from "../load/bodies.ts";
import { benchApp, productEnv } from "../product.ts";
import { seedPlayers } from "./seed-players.ts";
import { StoredCloses } from "./stored.ts";
import { closesTenants } from "./tenants.ts";
import { type WorkerCounters, workerCounters } from "./worker-counters.ts";

/** A version of the product: this checkout (`current`), or the checkout BENCH_CLOSES_BEFORE names. */
export interface Version {
  name: "current" | "before";
  /** Its checkout's root folder, with a trailing slash. */
  root: string;
}

/** One version's gateway and worker, started from its own checkout on a database and Redis prefix of its own. */
export interface Stack {
  version: Version;
  databaseUrl: string;
  prefix: string;
  worker: AppProcess;
  gateway: AppProcess;
  target: string;
  players: Map<number, Player[]>;
  database: Database;
  stored: StoredCloses;
  /** Where its last close left off: the worker's counters and the time its log was read up to. */
  seen: { counters: WorkerCounters; until: number; problems: number };
}

/** Runs the version's own migrator (`pnpm db:migrate`'s program) from its checkout on a fresh database. */
async function migrateWithItsOwnMigrator(version: Version, databaseUrl: string): Promise<void> {
  await dropDatabase(databaseUrl);
  const migrator = launch({
    name: `migrate-${version.name}`,
    command: process.execPath,
    args: ["--import", "tsx", "src/cli/migrate.cli.ts"],
    cwd: `${version.root}packages/ledger`,
    env: { ...inheritedEnv(), DATABASE_URL: databaseUrl },
    output: { lines: {} },
  });
  const code = await migrator.exited;
  if (code !== 0) throw new Error(`${version.name}'s migrator failed:\n${migrator.logs.join("\n")}`);
}

export async function startStack(
  version: Version,
  options: { databaseUrl: string; redisUrl: string; playersPerOperator: number },
): Promise<Stack> {
  const { databaseUrl, redisUrl } = options;
  await migrateWithItsOwnMigrator(version, databaseUrl);
  const database = createDatabase({ url: databaseUrl, poolSize: 8 });
  const players = await seedPlayers(database, options.playersPerOperator);
  const prefix = `bench-closes-${version.name}-${randomUUID().slice(0, 8)}`;
  const env = {
    ...productEnv({
      databaseUrl,
      redisUrl,
      prefix,
      partitions: partitionsEnvShape.LEDGER_PARTITIONS.parse(undefined),
    }),
    TENANTS: JSON.stringify(closesTenants),
  };
  // From its own checkout: `--import tsx` and every workspace package resolve there.
  const folder = (app: string) => relative(repoRoot, `${version.root}apps/${app}`);
  const worker = await startApp({
    ...benchApp,
    name: `worker-${version.name}`,
    // Its lost-lock lines are read per close (lost-locks.ts): kept for a whole run, not the last 200.
    keepLines: 20_000,
    cwd: folder("worker"),
    env,
    ready: "worker serving",
  });
  const gateway = await startApp({
    ...benchApp,
    name: `gateway-${version.name}`,
    cwd: folder("gateway"),
    env: { ...env, GATEWAY_PORT: "0" },
    ready: "gateway listening",
  });
  return {
    seen: {
      counters: await workerCounters(worker.metricsPort),
      until: Date.now(),
      problems: worker.problems.count,
    },
    version,
    databaseUrl,
    prefix,
    worker,
    gateway,
    target: `http://127.0.0.1:${gateway.port}`,
    players,
    database,
    stored: new StoredCloses(databaseUrl),
  };
}

/**
 * Freezes (SIGSTOP) or thaws a stack: only the version under measurement runs, as `pnpm bench` runs
 * one side at a time, so neither pays for the other's timers.
 */
export function freezeStack(stack: Stack, frozen: boolean): void {
  for (const app of [stack.worker, stack.gateway])
    if (app.child.exitCode === null) app.child.kill(frozen ? "SIGSTOP" : "SIGCONT");
}

export async function stopStack(stack: Stack, redisUrl: string, keepDatabase: boolean): Promise<void> {
  freezeStack(stack, false);
  await Promise.all([stopApp(stack.worker), stopApp(stack.gateway)]);
  await deleteKeysUnder(redisUrl, stack.prefix);
  await stack.stored.close();
  await stack.database.close();
  if (!keepDatabase) await dropDatabase(stack.databaseUrl);
}
