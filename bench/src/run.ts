import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dropDatabase } from "@wallet/ledger/migrate";
import { seedOutbox } from "@wallet/ledger/testing/outbox-seed";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { stopApp } from "@wallet/system-tests/harness/processes/app-process";
import { endWithParent, repoRoot } from "@wallet/system-tests/harness/processes/launch";
import { pidsNamed } from "./cpu.ts";
import { drainSideEffects, sideEffectLag } from "./drain.ts";
import { readBenchEnv } from "./env.ts";
import type { Acknowledged } from "./load/config.ts";
import { describeMachine } from "./machine.ts";
import { latencyThroughputSvg } from "./plot.ts";
import { benchTenant } from "./product.ts";
import { dropReference, referenceProblems, seedReference } from "./reference/schema.ts";
import { type Comparison, compare, formatComparison, type RunResult, serverErrors } from "./report.ts";
import { runLoad } from "./run-load.ts";
import { seedDatabase } from "./seed.ts";
import { ServerStats } from "./server-stats.ts";
import { settleDatabase } from "./settle.ts";
import { freeze, type StartedSide, startSide } from "./sides.ts";
import { round } from "./stats.ts";
import { evaluateTargets } from "./targets.ts";
import { verifyAfterLoad } from "./verify.ts";

/**
 * `pnpm bench`: the queued system, a plain reference wallet and the floor, side by side under the
 * same signed workload from a separate load process, alternated at each concurrency, one side
 * running at a time. Prints the comparison, verifies both ledgers and writes JSON + SVG.
 */
const env = readBenchEnv();
// Its children end with it however it ends (the launcher's watcher); it ends with `pnpm bench`.
endWithParent();
const say = (text: string) => console.log(text);
const databaseUrl = new URL(env.BENCH_DATABASE, env.DATABASE_URL).toString();
const referenceUrl = new URL(`${env.BENCH_DATABASE}_reference`, env.DATABASE_URL).toString();
const prefix = `bench-${randomUUID().slice(0, 8)}`;

say(
  `==> seeding ${env.BENCH_PLAYERS} players into ${env.BENCH_DATABASE} and ${env.BENCH_DATABASE}_reference`,
);
const { database, players } = await seedDatabase(databaseUrl, env.BENCH_PLAYERS);
await seedReference(
  referenceUrl,
  players.map((player) => player.userId),
  1_000_000_000n,
);

if (env.BENCH_APPLIED_OUTBOX_ROWS > 0) {
  say(`==> seeding ${env.BENCH_APPLIED_OUTBOX_ROWS} applied outbox rows, 8 days old (the pruner's work)`);
  await seedOutbox(database.db, "close-round:1:old-round-", env.BENCH_APPLIED_OUTBOX_ROWS, {
    applied: 8,
    published: 8,
  });
}
const statsRedis =
  env.BENCH_SERVER_STATS === "1" ? createRedis({ url: env.REDIS_URL }, "bench-stats") : undefined;

say(`==> starting ${env.BENCH_SIDES.join(", ")}`);
const started: StartedSide[] = [];
const runs: RunResult[] = [];
const acknowledged: Acknowledged[] = [];
try {
  for (const side of env.BENCH_SIDES) {
    started.push(
      await startSide(side, {
        product: { databaseUrl, redisUrl: env.REDIS_URL, prefix, partitions: env.BENCH_PARTITIONS },
        referenceDatabaseUrl: referenceUrl,
        gatewayEnv: env.BENCH_GATEWAY_ENV,
        workerEnv: env.BENCH_WORKER_ENV,
        profileDir: env.BENCH_CPU_PROFILE_DIR,
      }),
    );
  }
  const pidsOf = (name: string) =>
    started.flatMap((side) => side.apps.filter((app) => app.name === name).map((app) => app.pid));
  const groups = () => ({
    gateway: pidsOf("gateway"),
    worker: pidsOf("worker"),
    reference: pidsOf("reference"),
    floor: pidsOf("floor"),
    mariadb: pidsNamed("mariadbd", "mysqld"),
    redis: pidsNamed("redis-server"),
  });

  let seed = 1;
  for (const concurrency of env.BENCH_CONCURRENCY) {
    for (let pair = 1; pair <= env.BENCH_PAIRS; pair++) {
      // Each pair starts with the next side, so no side always runs first after a pause.
      const order = started.map((_, index) => started[(index + pair - 1) % started.length] as StartedSide);
      for (const current of order) {
        for (const other of started) freeze(other, other !== current);
        await settleDatabase(database.db, env.BENCH_SETTLE_SECONDS * 1000);
        const queued = current.side === "queued";
        const loadStarted = new Date(Date.now() - 1_000); // MySQL's clock is this machine's
        const closing = queued && env.BENCH_CLOSE_ROUNDS === "1";
        const drain = () =>
          closing ? drainSideEffects(database.db) : Promise.resolve({ pendingAtEnd: 0, drainSeconds: 0 });
        const stats = statsRedis && new ServerStats(database.db, statsRedis);
        const { summary, cpuSeconds, after } = await runLoad(
          {
            target: current.target,
            publicKey: benchTenant.publicKey,
            secretKey: benchTenant.secretKey,
            concurrency,
            warmupSeconds: env.BENCH_WARMUP_SECONDS,
            seconds: env.BENCH_SECONDS,
            players,
            rollbackRate: env.BENCH_ROLLBACK_RATE,
            duplicateRate: env.BENCH_DUPLICATE_RATE,
            closeRounds: env.BENCH_CLOSE_ROUNDS === "1" && current.side !== "floor",
            timeoutMs: 10_000,
            seed: seed++,
          },
          groups,
          drain,
          () => stats?.start(),
        );
        const serverStats = await stats?.perCallback(summary.requests);
        const lagMs = closing ? await sideEffectLag(database.db, loadStarted) : { p50: 0, p99: 0, max: 0 };
        const { acknowledged: acks, ...rest } = summary;
        // Not push(...acks): a long run acknowledges a million callbacks, past the call stack's limit.
        if (queued) for (const ack of acks) acknowledged.push(ack);
        const perCallback = (seconds: number) => round((seconds / summary.requests) * 1000, 3);
        runs.push({
          side: current.side,
          concurrency,
          pair,
          summary: rest,
          cpuSeconds,
          sideEffects: { ...after, lagMs },
          serverStats,
          cpuMsPerCallback: Object.fromEntries(
            Object.entries(cpuSeconds).map(([name, seconds]) => [name, perCallback(seconds)]),
          ),
        });
        say(
          `  ${current.side.padEnd(9)} c=${String(concurrency).padEnd(3)} pair ${pair}: ${rest.throughput} callbacks/s, ` +
            `p50 ${rest.latencyMs.p50} ms, p99 ${rest.latencyMs.p99} ms, max ${rest.latencyMs.max} ms, ` +
            `machine CPU ${perCallback(cpuSeconds.machine ?? 0)} ms per callback, ` +
            `statuses ${JSON.stringify(rest.statusesAll)}, resent answered differently ${rest.duplicateMismatches}` +
            (closing
              ? `, side effects pending at end ${after.pendingAtEnd} (drained in ${after.drainSeconds} s), ` +
                `lag close → last effect p50 ${lagMs.p50} ms, p99 ${lagMs.p99} ms, max ${lagMs.max} ms`
              : ""),
        );
        if (serverStats) say(`    per callback: ${JSON.stringify(serverStats)}`);
      }
    }
  }
} finally {
  for (const side of started) freeze(side, false);
  await Promise.all(started.flatMap((side) => side.apps).map((app) => stopApp(app)));
  await deleteKeysUnder(env.REDIS_URL, prefix);
  statsRedis?.disconnect();
}

say("==> verifying the ledgers after the load");
const verification = await verifyAfterLoad(database.db, benchTenant.operatorId, acknowledged);
const reference = await referenceProblems(referenceUrl);
const comparisons: Comparison[] = env.BENCH_CONCURRENCY.map((concurrency) => compare(runs, concurrency));
for (const comparison of comparisons) say(`\n${formatComparison(comparison)}`);

const queuedErrors = runs
  .filter((run) => run.side === "queued")
  .reduce((sum, run) => sum + serverErrors(run.summary.statusesAll), 0);
// The floor stores nothing, so its answers to resent requests differ by design.
const mismatches = runs
  .filter((run) => run.side !== "floor")
  .reduce((sum, run) => sum + run.summary.duplicateMismatches, 0);
const warnings = started.flatMap((side) => side.apps).map((app) => ({ app: app.name, ...app.problems }));
const yes = (ok: boolean) => (ok ? "yes" : "NO");
say("\nverification (the run fails if any is NO):");
say(
  `  product: journal = balances over ${verification.walletsChecked} wallets: ${yes(verification.ledgerProblems.length === 0)} ${verification.ledgerProblems.slice(0, 3).join("; ")}`,
);
say(
  `  product: every 200 the load saw is in the ledger (${verification.acknowledged}): ${yes(verification.missing.length === 0)} ${verification.missing.slice(0, 3).join("; ")}`,
);
say(
  `  reference: balances = opening + transactions over ${reference.wallets} wallets: ${yes(reference.problems.length === 0)} ${reference.problems.slice(0, 3).join("; ")}`,
);
say(`  every resent request answered byte-equal: ${yes(mismatches === 0)} (${mismatches} differed)`);
say(`  (queued 5xx + timeouts, all runs: ${queuedErrors})`);
for (const { app, count, first } of warnings)
  if (count > 0) say(`  note: ${app} logged ${count} warnings or errors, first: ${first[0]}`);

const targets = evaluateTargets(comparisons);
say("\ntargets (issue 16; reported, not a failure of the run):");
for (const target of targets)
  say(`  ${target.name}: ${target.value ?? "-"} ${target.met ? "met" : "NOT met"}`);

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const folder = env.BENCH_RESULTS_DIR ?? `${repoRoot}bench/results`;
mkdirSync(folder, { recursive: true });
const result = {
  at: new Date().toISOString(),
  machine: describeMachine(),
  settings: { ...env, DATABASE_URL: undefined },
  comparisons,
  runs,
  verification: {
    ...verification,
    missing: verification.missing.slice(0, 50),
    reference,
    queuedErrors,
    mismatches,
  },
  targets,
  warnings,
};
const json = `${JSON.stringify(result, null, 2)}\n`;
writeFileSync(`${folder}/bench-${stamp}.json`, json);
writeFileSync(`${folder}/latest.json`, json);
const svg = latencyThroughputSvg(runs, `pnpm bench, ${os.cpus().length} cores, ${env.BENCH_PLAYERS} players`);
writeFileSync(`${folder}/bench-${stamp}.svg`, svg);
writeFileSync(`${folder}/latest.svg`, svg);
say(`\nresults: bench/results/bench-${stamp}.json and .svg (also latest.json, latest.svg)`);

await database.close();
if (env.BENCH_KEEP_DATABASE === "0") {
  await dropDatabase(databaseUrl);
  await dropReference(referenceUrl);
}
const failed = !verification.passed || reference.problems.length > 0 || mismatches > 0;
process.exit(failed ? 1 : 0);
