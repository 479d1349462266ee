import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dropDatabase } from "@wallet/ledger/migrate";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { pidsNamed } from "./cpu.ts";
import { drainSideEffects } from "./drain.ts";
import { inheritedEnv, readBenchEnv } from "./env.ts";
import type { Acknowledged } from "./load/config.ts";
import { describeMachine } from "./machine.ts";
import { latencyThroughputSvg } from "./plot.ts";
import { type RunningApp, repoRoot, startApp, stopApp } from "./processes.ts";
import {
  type Comparison,
  compare,
  formatComparison,
  type RunResult,
  type Side,
  serverErrors,
} from "./report.ts";
import { runLoad } from "./run-load.ts";
import { benchTenant, seedDatabase } from "./seed.ts";
import { verifyAfterLoad } from "./verify.ts";

/**
 * `pnpm bench`: the queued system (gateway + worker) and the direct baseline, side by side, under
 * the same signed workload from a separate load process, alternated A/B/A/B at each concurrency.
 * Prints the comparison, verifies the ledger afterwards and writes JSON + SVG to bench/results/.
 */
const env = readBenchEnv();
const say = (text: string) => console.log(text);
const databaseUrl = new URL(env.BENCH_DATABASE, env.DATABASE_URL).toString();
const prefix = `bench-${randomUUID().slice(0, 8)}`;
const tenants = JSON.stringify([benchTenant]);
const base = { ...inheritedEnv(), LOG_LEVEL: "warn", TENANTS: tenants, METRICS_PORT: "0" };
const shared = { ...base, DATABASE_URL: databaseUrl, REDIS_URL: env.REDIS_URL, REDIS_PREFIX: prefix };
const partitions = String(env.BENCH_PARTITIONS);
const profiles = env.BENCH_CPU_PROFILE_DIR;

say(`==> seeding ${env.BENCH_PLAYERS} players into ${env.BENCH_DATABASE}`);
const { database, players } = await seedDatabase(databaseUrl, env.BENCH_PLAYERS);

say("==> starting worker, gateway and direct baseline");
const apps: RunningApp[] = [];
const start = async (options: Parameters<typeof startApp>[0]) => {
  const app = await startApp(options);
  apps.push(app);
  return app;
};
const runs: RunResult[] = [];
const acknowledged: Acknowledged[] = [];
try {
  const worker = await start({
    name: "worker",
    cwd: "apps/worker",
    env: { ...shared, LEDGER_PARTITIONS: partitions, LOG_LEVEL: "info", ...env.BENCH_WORKER_ENV },
    ready: "worker serving",
    cpuProfileDir: profiles,
  });
  const gateway = await start({
    name: "gateway",
    cwd: "apps/gateway",
    env: {
      ...shared,
      LEDGER_PARTITIONS: partitions,
      GATEWAY_PORT: "0",
      LOG_LEVEL: "info",
      ...env.BENCH_GATEWAY_ENV,
    },
    ready: "gateway listening",
    cpuProfileDir: profiles,
  });
  const direct = await start({
    name: "direct",
    cwd: "bench",
    entry: "src/direct/main.ts",
    env: { ...shared, GATEWAY_PORT: "0", LOG_LEVEL: "info", ...env.BENCH_DIRECT_ENV },
    ready: "direct baseline listening",
    cpuProfileDir: profiles,
  });
  const targets: Record<Side, string> = {
    queued: `http://127.0.0.1:${gateway.port}`,
    direct: `http://127.0.0.1:${direct.port}`,
  };
  const groups = () => ({
    gateway: [gateway.pid],
    worker: [worker.pid],
    direct: [direct.pid],
    mariadb: pidsNamed("mariadbd", "mysqld"),
    redis: pidsNamed("redis-server"),
  });

  let seed = 1;
  for (const concurrency of env.BENCH_CONCURRENCY) {
    for (let pair = 1; pair <= env.BENCH_PAIRS; pair++) {
      for (const side of env.BENCH_SIDES) {
        const drain = () =>
          env.BENCH_DRAIN === "1"
            ? drainSideEffects(database.db)
            : Promise.resolve({ pendingAtEnd: -1, drainSeconds: 0 });
        const {
          summary,
          cpuSeconds,
          after: sideEffects,
        } = await runLoad(
          {
            target: targets[side],
            publicKey: benchTenant.publicKey,
            secretKey: benchTenant.secretKey,
            concurrency,
            warmupSeconds: env.BENCH_WARMUP_SECONDS,
            seconds: env.BENCH_SECONDS,
            players,
            rollbackRate: env.BENCH_ROLLBACK_RATE,
            duplicateRate: env.BENCH_DUPLICATE_RATE,
            timeoutMs: 10_000,
            seed: seed++,
          },
          groups,
          inheritedEnv(),
          drain,
        );
        const { acknowledged: acks, ...rest } = summary;
        acknowledged.push(...acks);
        const per1000 = (seconds: number) => Math.round((seconds / summary.requests) * 1000 * 1000) / 1000;
        const run: RunResult = {
          side,
          concurrency,
          pair,
          summary: rest,
          cpuSeconds,
          sideEffects,
          cpuPer1000: Object.fromEntries(Object.entries(cpuSeconds).map(([name, s]) => [name, per1000(s)])),
        };
        runs.push(run);
        say(
          `  ${side.padEnd(6)} c=${String(concurrency).padEnd(3)} pair ${pair}: ${rest.throughput} callbacks/s, ` +
            `p50 ${rest.latencyMs.p50} ms, p99 ${rest.latencyMs.p99} ms, max ${rest.latencyMs.max} ms, ` +
            `statuses ${JSON.stringify(rest.statusesAll)}, resent answered differently ${rest.duplicateMismatches}, ` +
            `side effects pending at end ${sideEffects.pendingAtEnd} (drained in ${sideEffects.drainSeconds} s)`,
        );
      }
    }
  }
} finally {
  await Promise.all(apps.map(stopApp));
  await deleteKeysUnder(env.REDIS_URL, prefix);
}

say("==> verifying the ledger after the load");
const verification = await verifyAfterLoad(database.db, benchTenant.operatorId, acknowledged);
const comparisons: Comparison[] = env.BENCH_CONCURRENCY.map((concurrency) => compare(runs, concurrency));
for (const comparison of comparisons) say(`\n${formatComparison(comparison)}`);

const lowest = Math.min(...env.BENCH_CONCURRENCY);
const highest = Math.max(...env.BENCH_CONCURRENCY);
const errorsAtLowest = runs
  .filter((run) => run.concurrency === lowest)
  .reduce((sum, run) => sum + serverErrors(run.summary.statusesAll), 0);
const mismatches = runs.reduce((sum, run) => sum + run.summary.duplicateMismatches, 0);
const warnings = apps.map((app) => ({ app: app.name, ...app.problems }));
const yes = (ok: boolean) => (ok ? "yes" : "NO");
say("\nverification (the run fails if any is NO):");
say(
  `  journal = balances over ${verification.walletsChecked} wallets: ${yes(verification.ledgerProblems.length === 0)} ${verification.ledgerProblems.slice(0, 3).join("; ")}`,
);
say(
  `  every 200 the load saw is in the ledger (${verification.acknowledged}): ${yes(verification.missing.length === 0)} ${verification.missing.slice(0, 3).join("; ")}`,
);
say(`  no 5xx or timeout at concurrency ${lowest}: ${yes(errorsAtLowest === 0)} (${errorsAtLowest})`);
say(`  every resent request answered byte-equal: ${yes(mismatches === 0)} (${mismatches} differed)`);
for (const { app, count, first } of warnings)
  if (count > 0) say(`  note: ${app} logged ${count} warnings or errors, first: ${first[0]}`);

// The targets, reported (numbers, not a pass/fail of the run: they depend on the machine).
const atHighest = comparisons.find((comparison) => comparison.concurrency === highest);
const atLowest = comparisons.find((comparison) => comparison.concurrency === lowest);
const targets = {
  [`queued throughput >= 1.0x direct at concurrency ${highest}`]: atHighest?.ratios?.throughput,
  [`queued p99 <= 25 ms at concurrency ${lowest}`]: atLowest?.sides.queued?.p99,
  "zero 5xx": runs.reduce((sum, run) => sum + serverErrors(run.summary.statusesAll), 0),
};
const met = [
  (atHighest?.ratios?.throughput ?? 0) >= 1,
  (atLowest?.sides.queued?.p99 ?? Number.POSITIVE_INFINITY) <= 25,
  targets["zero 5xx"] === 0,
];
say("\ntargets:");
Object.entries(targets).forEach(([name, value], index) => {
  say(`  ${name}: ${value ?? "-"} ${met[index] ? "met" : "NOT met"}`);
});

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const folder = env.BENCH_RESULTS_DIR ?? `${repoRoot}bench/results`;
mkdirSync(folder, { recursive: true });
const result = {
  at: new Date().toISOString(),
  machine: describeMachine(),
  settings: { ...env, DATABASE_URL: undefined },
  comparisons,
  runs,
  verification: { ...verification, missing: verification.missing.slice(0, 50), errorsAtLowest, mismatches },
  targets,
  warnings,
};
writeFileSync(`${folder}/bench-${stamp}.json`, `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(`${folder}/latest.json`, `${JSON.stringify(result, null, 2)}\n`);
const svg = latencyThroughputSvg(runs, `pnpm bench, ${os.cpus().length} cores, ${env.BENCH_PLAYERS} players`);
writeFileSync(`${folder}/bench-${stamp}.svg`, svg);
writeFileSync(`${folder}/latest.svg`, svg);
say(`\nresults: bench/results/bench-${stamp}.json and .svg (also latest.json, latest.svg)`);

await database.close();
if (env.BENCH_KEEP_DATABASE === "0") await dropDatabase(databaseUrl);
const failed = !verification.passed || mismatches > 0 || errorsAtLowest > 0;
process.exit(failed ? 1 : 0);
