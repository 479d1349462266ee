import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { type RoundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import { versionOneReport } from "@wallet/contracts/testing/version-one-report";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { afterAll, describe, expect, inject, it } from "vitest";
import { exportReports } from "./reporting-export.ts";

const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "reporting-export-test");
const queues = new SideEffectQueues(redis, prefix);
const dir = mkdtempSync(join(tmpdir(), "reports-"));
const folders = [dir];
const newFolder = (name: string) => {
  const folder = mkdtempSync(join(tmpdir(), `reports-${name}-`));
  folders.push(folder);
  return folder;
};

afterAll(async () => {
  await queues.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
  redis.disconnect();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function report(round: number, day = "2026-11-20"): RoundReport {
  return {
    eventId: roundReportEventId(7, `r-${round}`),
    schemaVersion: 2,
    operatorId: 7,
    roundId: `r-${round}`,
    game: "crashGame",
    closedAt: `${day}T10:00:0${round}.000Z`,
    betCount: 1,
    byCurrency: [
      { currency: "EUR", betCount: 1, stakeSum: `${1_000 * round}`, payoutSum: "0", ggr: `${1_000 * round}` },
    ],
    reconciliation: "matched",
  };
}

const lines = (day = "2026-11-20") =>
  readFileSync(join(dir, `round-reports-${day}.ndjson`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RoundReport);
const run = () => exportReports({ redis, prefix, dir, untilIdle: true });

describe("pnpm reporting:export", () => {
  it("writes a version 1 report (sums past 2^53 included) as version 2, keeps a job that is no report in rejected-reports.ndjson, counts it and goes on", async () => {
    // Issue 31: a report over its schema's maximum was "not exported: ZodError too_big", retried ten
    // times and left in the failed set.
    const folder = newFolder("versions");
    const v1 = versionOneReport(7, "r-8", "2026-11-22T10:00:08.000Z");
    const queue = queues.reporting.queue;
    await queue.add("round-report", v1.stored, { jobId: "v1" });
    await queue.add(
      "round-report",
      { eventId: "round-report:7:garbage", stakeSum: "lots" },
      { jobId: "garbage" },
    );
    await queues.reporting.publish([report(9, "2026-11-22")]);
    expect(await exportReports({ redis, prefix, dir: folder, untilIdle: true })).toEqual({
      written: 2,
      skipped: 0,
      rejected: 1,
    });
    const written = readFileSync(join(folder, "round-reports-2026-11-22.ndjson"), "utf8")
      .split("\n")
      .filter(Boolean);
    expect(written.map((line) => JSON.parse(line))).toEqual([v1.upgraded, report(9, "2026-11-22")]);
    const rejected = readFileSync(join(folder, "rejected-reports.ndjson"), "utf8").trim().split("\n");
    expect(rejected.map((line) => JSON.parse(line))).toEqual([
      {
        jobId: "garbage",
        problem: expect.any(String),
        data: { eventId: "round-report:7:garbage", stakeSum: "lots" },
      },
    ]);
    expect(await queues.reporting.backlog()).toEqual({ unread: 0, oldestAgeSeconds: 0 });
  });

  it("drains the queue into a day file per closing day, a report a line, acknowledging each once on disk", async () => {
    await queues.reporting.publish([report(1), report(2), report(3, "2026-11-21")]);
    expect(await run()).toEqual({ written: 3, skipped: 0, rejected: 0 });
    expect(lines()).toEqual([report(1), report(2)]);
    expect(lines("2026-11-21")).toEqual([report(3, "2026-11-21")]);
    expect(await queues.reporting.backlog()).toEqual({ unread: 0, oldestAgeSeconds: 0 });
  });

  it("after a crash mid-line and before an acknowledgement: the cut line is dropped, nothing is skipped or written twice", async () => {
    // The crash: report 4 was written whole but not acknowledged (its job comes again), report 5 was cut mid-line.
    const file = join(dir, "round-reports-2026-11-20.ndjson");
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}${JSON.stringify(report(4))}\n${JSON.stringify(report(5)).slice(0, 30)}`,
    );
    await queues.reporting.publish([report(4), report(5), report(2)]);
    expect(await run()).toEqual({ written: 1, skipped: 2, rejected: 0 });
    expect(lines().map((one) => one.roundId)).toEqual(["r-1", "r-2", "r-4", "r-5"]);
    expect(lines()[3]).toEqual(report(5));
    expect(readdirSync(dir).sort()).toEqual([
      "round-reports-2026-11-20.ndjson",
      "round-reports-2026-11-21.ndjson",
    ]);
  });
});

describe("one folder, one exporter: the folder's lock", () => {
  const lockFileName = ".reporting-export.lock";
  const lockIn = (folder: string, holder: { pid: number; host: string; startedAt: string }) => {
    const path = join(folder, lockFileName);
    writeFileSync(path, JSON.stringify(holder));
    return path;
  };
  const drain = (folder: string, log?: (line: string) => void) =>
    exportReports({ redis, prefix, dir: folder, untilIdle: true, log });

  it("while a live exporter holds it, another refuses before taking a job, naming the holder; the report stays queued", async () => {
    const folder = newFolder("locked");
    // Our parent (the test runner) is alive on this host: a live holder.
    const holder = { pid: process.ppid, host: hostname(), startedAt: "2026-11-20T09:00:00.000Z" };
    const path = lockIn(folder, holder);
    await queues.reporting.publish([report(6)]);
    const refused = await drain(folder).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error | undefined)?.message).toBe(
      `${path} is held by the exporter with pid ${process.ppid} on ${hostname()}, started 2026-11-20T09:00:00.000Z: one folder takes one exporter`,
    );
    expect(readdirSync(folder)).toEqual([lockFileName]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(holder);
    expect((await queues.reporting.backlog()).unread).toBe(1);

    // A lock from another host cannot be checked: never taken over, whatever its pid.
    lockIn(folder, { ...holder, pid: 999_999_999, host: `not-${hostname()}` });
    await expect(drain(folder)).rejects.toThrow(/pid 999999999 on not-/);
  });

  it("a lock whose pid is gone from this host is taken over with a log line, and released when the export ends", async () => {
    const folder = newFolder("stale");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const path = lockIn(folder, { pid: dead, host: hostname(), startedAt: "2026-11-20T09:00:00.000Z" });
    const logged: string[] = [];
    expect(await drain(folder, (line) => logged.push(line))).toEqual({ written: 1, skipped: 0, rejected: 0 });
    expect(logged[0]).toBe(
      `taking over the stale lock ${path}: its exporter (pid ${dead} on ${hostname()}, started 2026-11-20T09:00:00.000Z) is gone`,
    );
    expect(readdirSync(folder)).toEqual(["round-reports-2026-11-20.ndjson"]);
    // The report the refused exporter left queued (above), written once by this one.
    expect(readFileSync(join(folder, "round-reports-2026-11-20.ndjson"), "utf8")).toBe(
      `${JSON.stringify(report(6))}\n`,
    );
    expect(existsSync(path)).toBe(false);
  });
});
