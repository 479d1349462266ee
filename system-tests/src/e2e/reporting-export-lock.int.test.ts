import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { harnessPath } from "../harness/env.ts";
import { type AppProcess, authedPlayer, callGateway, eventually, useTestSystem } from "../harness/system.ts";

/**
 * `pnpm reporting:export` takes its folder's lock for as long as it runs: a second exporter on the
 * folder exits at once (code 3) naming the holder, so a republish can never be split between two
 * processes that each skip only what they wrote. A SIGKILLed exporter's lock is taken over.
 */
const run = promisify(execFile);
const workerDir = fileURLToPath(new URL("../../../apps/worker/", import.meta.url));
const lockFile = ".reporting-export.lock";
const system = useTestSystem();
let gateway: AppProcess;
let queues: SideEffectQueues;
const redis = createRedis({ url: inject("redisUrl") }, "reporting-export-lock-test");
const exporters: Exporter[] = [];
const folders: string[] = [];
const newFolder = (name: string) => {
  const folder = mkdtempSync(join(tmpdir(), `reports-${name}-`));
  folders.push(folder);
  return folder;
};
/** The report event ids of the rounds the first test plays; the second republishes them. */
let played: string[] = [];
const since = new Date(Date.now() - 1_000).toISOString();

beforeAll(async () => {
  await system.startWorker();
  gateway = await system.startGateway();
  queues = new SideEffectQueues(redis, system.prefix);
}, 60_000);
afterAll(async () => {
  for (const exporter of exporters) exporter.child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await queues.close();
  redis.disconnect();
});

const cliEnv = () => ({
  PATH: harnessPath,
  DATABASE_URL: system.ledger.url,
  REDIS_URL: inject("redisUrl"),
  REDIS_PREFIX: system.prefix,
});

interface Exporter {
  child: ChildProcess;
  /** stdout and stderr, line by line. */
  lines: string[];
  /** Once it has exited and its output is all read ('close', not 'exit', which may come first). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  done: boolean;
}

/** The production command of `pnpm reporting:export` (apps/worker's `reporting-export` script). */
function startExporter(folder: string, ...args: string[]): Exporter {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/reporting-export.ts", "--out", folder, ...args],
    { cwd: workerDir, env: cliEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  const exporter: Exporter = {
    child,
    lines: [],
    exited: new Promise((resolve) =>
      child.once("close", (code, signal) => {
        exporter.done = true;
        resolve({ code, signal });
      }),
    ),
    done: false,
  };
  for (const stream of [child.stdout, child.stderr])
    stream?.on("data", (chunk: Buffer) =>
      exporter.lines.push(...chunk.toString().split("\n").filter(Boolean)),
    );
  exporters.push(exporter);
  return exporter;
}

/** Processes consuming the reporting queue right now (BullMQ names their Redis connections). */
const consumers = async () => (await queues.reporting.queue.getWorkers()).length;

/** Nothing waiting or in hand on the reporting queue, three polls in a row. */
async function queueDrained(): Promise<void> {
  let quiet = 0;
  await eventually(
    async () => {
      const counts = await queues.reporting.queue.getJobCounts("wait", "active", "delayed", "prioritized");
      quiet = Object.values(counts).every((count) => count === 0) ? quiet + 1 : 0;
      return quiet >= 3 ? true : undefined;
    },
    20_000,
    "the reporting queue drained",
  );
}

/** `count` rounds, each a bet and its CLOSE_ROUND through the gateway; their report event ids. */
async function playRounds(count: number): Promise<string[]> {
  const player = await authedPlayer(system, gateway, { balance: 1_000_000n });
  const eventIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const roundId = `lock-${randomUUID().slice(0, 8)}`;
    expect((await callGateway(gateway, "/withdraw", betBody(player, { action_id: roundId }))).status).toBe(
      200,
    );
    expect((await callGateway(gateway, "/deposit", closeRoundBody(roundId, [1_000], [0]))).status).toBe(200);
    eventIds.push(`round-report:1:${roundId}`);
  }
  return eventIds;
}

/** `pnpm side-effects republish --topic reporting --since <time>`: every stored report back on the queue. */
async function republish(): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "src/cli/side-effects.ts", "republish", "--topic", "reporting", "--since", since],
    { cwd: workerDir, env: cliEnv() },
  );
  return stdout;
}

/** Every line of every day file in the folder: the event ids, in file order. */
const exportedEventIds = (folder: string) =>
  readdirSync(folder)
    .filter((name) => name.endsWith(".ndjson"))
    .flatMap((name) => readFileSync(join(folder, name), "utf8").split("\n").filter(Boolean))
    .map((line) => String((JSON.parse(line) as { eventId: unknown }).eventId));

describe("pnpm reporting:export: one folder, one exporter", () => {
  it("a second exporter on a folder exits at once with code 3 naming the first; after a publish and a republish the folder holds each report once", async () => {
    const folder = newFolder("two");
    const first = startExporter(folder);
    await eventually(
      async () => ((await consumers()) === 1 ? true : undefined),
      20_000,
      "the first exporter",
    );
    const second = startExporter(folder);
    // It must exit without taking a job; one that joined the first would show as a second consumer.
    const outcome = await eventually(
      async () => (second.done ? "exited" : (await consumers()) === 2 ? "consuming" : undefined),
      20_000,
      "the second exporter to exit or consume",
    );
    expect.soft(outcome).toBe("exited");
    expect
      .soft(await Promise.race([second.exited, Promise.resolve("running")]))
      .toEqual({ code: 3, signal: null });
    // The first's lock, which the second names (read softly: a failure here must not hide the lines below).
    const lock = join(folder, lockFile);
    const holder = (existsSync(lock) ? JSON.parse(readFileSync(lock, "utf8")) : {}) as { startedAt?: string };
    expect
      .soft(second.lines)
      .toEqual([
        `reporting:export: not started: ${lock} is held by the exporter with pid ${first.child.pid} on ${hostname()}, started ${holder.startedAt}: one folder takes one exporter`,
      ]);

    played = await playRounds(9);
    await eventually(
      async () => ((await countRows(system.ledger, "round_reports")) === 9 ? true : undefined),
      20_000,
      "9 round reports",
    );
    await queueDrained();
    // The reporting team puts every report back (say, after a restore): each is already in the folder.
    expect(await republish()).toMatch(/^9 round report\(s\) made since .* are on the reporting queue again/);
    await queueDrained();

    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(exportedEventIds(folder).sort()).toEqual([...played].sort());
    expect(first.lines.at(-1)).toBe(`9 report(s) written to ${folder}, 9 already there`);
    // Released on SIGTERM: only the day file is left.
    expect(readdirSync(folder).filter((name) => !name.endsWith(".ndjson"))).toEqual([]);
  }, 90_000);

  it("a SIGKILLed exporter leaves its lock; the next run takes it over with a log line, exports each report once and releases it", async () => {
    const folder = newFolder("killed");
    const lock = join(folder, lockFile);
    const killed = startExporter(folder);
    await eventually(async () => (existsSync(lock) ? true : undefined), 20_000, "the exporter's lock");
    killed.child.kill("SIGKILL");
    expect(await killed.exited).toEqual({ code: null, signal: "SIGKILL" });
    const stale = JSON.parse(readFileSync(lock, "utf8")) as { pid: number; host: string; startedAt: string };
    expect(stale).toEqual({ pid: killed.child.pid, host: hostname(), startedAt: expect.any(String) });

    expect(await republish()).toMatch(/^9 round report\(s\) made since/);
    const next = startExporter(folder, "--until-idle");
    expect(await next.exited).toEqual({ code: 0, signal: null });
    expect(next.lines[0]).toBe(
      `taking over the stale lock ${lock}: its exporter (pid ${stale.pid} on ${stale.host}, started ${stale.startedAt}) is gone`,
    );
    expect(next.lines.at(-1)).toBe(`9 report(s) written to ${folder}, 0 already there`);
    expect(exportedEventIds(folder).sort()).toEqual([...played].sort());
    expect(existsSync(lock)).toBe(false);
  }, 90_000);

  it("SIGINT (Ctrl-C) stops an exporter with code 0 and releases its lock: the next one starts without a takeover", async () => {
    const folder = newFolder("sigint");
    const lock = join(folder, lockFile);
    const interrupted = startExporter(folder);
    await eventually(async () => (existsSync(lock) ? true : undefined), 20_000, "the exporter's lock");
    interrupted.child.kill("SIGINT");
    expect(await interrupted.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(lock)).toBe(false);
    const next = startExporter(folder, "--until-idle");
    expect(await next.exited).toEqual({ code: 0, signal: null });
    expect(next.lines).toEqual([
      `exporting the reporting queue to ${folder} (lock ${lock})`,
      `0 report(s) written to ${folder}, 0 already there`,
    ]);
  }, 60_000);
});
