import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createRedis } from "@wallet/queue/redis";
import { endWithParent, repoRoot } from "@wallet/system-tests/harness/processes/launch";
import { describeMachine } from "../machine.ts";
import { type CellResult, runCell } from "./cell.ts";
import { type Contention, startContention } from "./contention.ts";
import { readClosesEnv } from "./env.ts";
import { freezeStack, type Stack, startStack, stopStack, type Version } from "./stack.ts";
import { formatCellLine, formatCells } from "./table.ts";
import { evaluateCloseTargets } from "./targets.ts";

/**
 * `pnpm bench:closes` (issue 39): large closes (10,000 to 620,000 bets, 8 MiB not UTF-8) sent as the
 * platform sends them to the current version and, with BENCH_CLOSES_BEFORE, to the version before
 * the close intake, alternated close by close, on an idle machine, under two operators' load, and
 * under CPU and disk contention. Prints a table per version and the issue's targets, writes JSON.
 */
const env = readClosesEnv();
endWithParent();
const say = (text: string) => console.log(text);
const started = Date.now();

const versions: Version[] = [{ name: "current", root: repoRoot }];
if (env.BENCH_CLOSES_BEFORE) {
  const root = `${resolve(env.BENCH_CLOSES_BEFORE)}/`;
  if (!existsSync(`${root}node_modules`) || !existsSync(`${root}apps/worker`))
    throw new Error(
      `BENCH_CLOSES_BEFORE=${root} is not a checkout with its dependencies installed: ` +
        "git worktree add /tmp/closes-before 3eec769 && (cd /tmp/closes-before && pnpm install --frozen-lockfile)",
    );
  versions.push({ name: "before", root });
}
const databaseUrl = (version: Version) =>
  new URL(
    version.name === "current" ? env.BENCH_CLOSES_DATABASE : `${env.BENCH_CLOSES_DATABASE}_before`,
    env.DATABASE_URL,
  ).toString();

const redis = createRedis({ url: env.REDIS_URL }, "bench-closes-memory");
const stacks: Stack[] = [];
const cells: CellResult[] = [];
let contention: Contention | undefined;
const contentionUsed: string[] = [];
try {
  for (const version of versions) {
    say(
      `==> ${version.name} (${version.root}): migrating with its own migrator, seeding, starting gateway and worker`,
    );
    stacks.push(
      await startStack(version, {
        databaseUrl: databaseUrl(version),
        redisUrl: env.REDIS_URL,
        playersPerOperator: env.BENCH_CLOSES_PLAYERS,
      }),
    );
  }
  let seed = 1;
  for (const [conditionIndex, condition] of env.BENCH_CLOSES_CONDITIONS.entries()) {
    say(`==> condition: ${condition}`);
    if (condition === "contention") {
      contention = startContention();
      contentionUsed.push(contention.what);
      say(`  contention: ${contention.what}, at the stack's priority`);
      await new Promise((wait) => setTimeout(wait, 3_000));
    }
    try {
      for (const [caseIndex, name] of env.BENCH_CLOSES_CASES.entries()) {
        // Before/after per close, the version that goes first alternating.
        const order = (caseIndex + conditionIndex) % 2 === 0 ? stacks : [...stacks].reverse();
        for (const stack of order) {
          for (const other of stacks) freezeStack(other, other !== stack);
          const cell = await runCell(stack, name, condition, env, redis, seed++);
          cells.push(cell);
          say(formatCellLine(cell));
        }
      }
    } finally {
      await contention?.stop();
      contention = undefined;
    }
  }
} finally {
  await contention?.stop();
  await Promise.all(
    stacks.map((stack) => stopStack(stack, env.REDIS_URL, env.BENCH_CLOSES_KEEP_DATABASE === "1")),
  );
  redis.disconnect();
}

const byVersion = versions.map((version) => ({
  version: version.name,
  root: version.root,
  cells: cells.filter((cell) => cell.version === version.name),
}));
const targets = byVersion.map(({ version, cells: mine }) => ({
  version,
  targets: evaluateCloseTargets(mine),
}));
for (const { version, cells: mine } of byVersion) say(`\n${formatCells(version, mine)}`);
for (const { version, targets: mine } of targets) {
  say(`\ntargets, ${version} (issue 39; reported, never a failure of the run):`);
  for (const target of mine) say(`  ${target.name}: ${target.met ? "met" : "NOT met"} (${target.detail})`);
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
say(`\n${cells.length} cells in ${minutes} min; contention: ${contentionUsed[0] ?? "not run"}`);

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const folder = env.BENCH_RESULTS_DIR ?? `${repoRoot}bench/results`;
mkdirSync(folder, { recursive: true });
const json = `${JSON.stringify(
  {
    at: new Date().toISOString(),
    machine: describeMachine(),
    settings: { ...env, DATABASE_URL: undefined },
    contention: contentionUsed[0] ?? null,
    minutes: Number(minutes),
    versions: byVersion,
    targets,
  },
  null,
  2,
)}\n`;
writeFileSync(`${folder}/closes-${stamp}.json`, json);
writeFileSync(`${folder}/latest-closes.json`, json);
say(`results: ${folder}/closes-${stamp}.json (also latest-closes.json)`);
process.exit(0);
