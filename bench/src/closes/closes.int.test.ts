import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testDatabaseName } from "@wallet/ledger/testing/test-ledger";
import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { launch, repoRoot } from "@wallet/system-tests/harness/processes/launch";
import { describe, expect, inject, it } from "vitest";

/**
 * `pnpm bench:closes` itself, shrunk to one small close on an idle system, the current version only,
 * resends 1 s apart: the stack starts from its own migrator, the other players play, the close is
 * delivered and found stored, and the table, the targets and the JSON are written. Proves the
 * benchmark works on a fresh clone; its numbers are for `pnpm bench:closes`, never asserted here.
 */
describe("pnpm bench:closes (one small close of it)", () => {
  it("delivers a close as the platform does, finds it stored, counts the other players' answers and writes JSON", async () => {
    const results = mkdtempSync(join(tmpdir(), "bench-closes-"));
    const bench = launch({
      name: "bench-closes",
      command: process.execPath,
      args: ["--import", "tsx", "bench/src/closes/run.ts"],
      cwd: repoRoot,
      env: {
        ...inheritedEnv(),
        DATABASE_URL: new URL("wallet", inject("mysqlServerUrl")).toString(),
        REDIS_URL: inject("redisUrl"),
        BENCH_CLOSES_DATABASE: testDatabaseName(),
        BENCH_CLOSES_CASES: "10k-bets",
        BENCH_CLOSES_CONDITIONS: "idle",
        BENCH_CLOSES_RESEND_BASE_MS: "1000",
        BENCH_CLOSES_PLAYERS: "8",
        BENCH_CLOSES_WARMUP_SECONDS: "1",
        BENCH_RESULTS_DIR: results,
      },
      output: { lines: {} },
    });
    // Killed before the test's own timeout, so a hang fails with the benchmark's output to read.
    const killer = setTimeout(() => bench.child.kill("SIGKILL"), 100_000);
    const code = await bench.exited;
    clearTimeout(killer);
    const output = bench.logs.join("\n");
    expect(code, output).toBe(0);
    expect(output).toContain("| 10k-bets × idle");
    expect(output).toContain("targets, current");

    const result = JSON.parse(readFileSync(join(results, "latest-closes.json"), "utf8"));
    expect(result.versions.map((version: { version: string }) => version.version)).toEqual(["current"]);
    const [cell] = result.versions[0].cells;
    expect(result.versions[0].cells).toHaveLength(1);
    expect(cell).toMatchObject({ condition: "idle", close: "10k-bets", expect: "closed", storedAtEnd: true });
    expect(cell.bytes).toBeGreaterThan(64 * 1024);
    expect(cell.delivery.sends.length).toBeGreaterThanOrEqual(1);
    expect(cell.others.wholeCell.sends).toBeGreaterThan(0);
    expect(cell.others.wholeCell.statuses["200"]).toBeGreaterThan(0);
    expect(cell.memory.worker.peakMiB).toBeGreaterThan(0);
    expect(cell.memory.redis.peakMiB).toBeGreaterThan(0);
    expect(result.targets[0].targets.length).toBeGreaterThan(0);
  }, 120_000);
});
