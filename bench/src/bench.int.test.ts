import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testDatabaseName } from "@wallet/ledger/testing/test-ledger";
import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { launch, repoRoot } from "@wallet/system-tests/harness/processes/launch";
import { describe, expect, inject, it } from "vitest";

/**
 * `pnpm bench` itself, shrunk to seconds: every side starts, the load runs each in turn at two
 * concurrencies, the ledger is verified and the JSON and SVG are written. Proves the benchmark
 * works on a fresh clone; its numbers are for `pnpm bench`, never asserted here.
 */
describe("pnpm bench (a few seconds of it)", () => {
  it("runs the queued system, the reference wallet and the floor, verifies both ledgers and writes JSON and SVG results", async () => {
    const results = mkdtempSync(join(tmpdir(), "bench-"));
    const database = testDatabaseName();
    const bench = launch({
      name: "bench",
      command: process.execPath,
      args: ["--import", "tsx", "bench/src/run.ts"],
      cwd: repoRoot,
      env: {
        ...inheritedEnv(),
        DATABASE_URL: new URL("wallet", inject("mysqlServerUrl")).toString(),
        REDIS_URL: inject("redisUrl"),
        BENCH_DATABASE: database,
        BENCH_PLAYERS: "64",
        BENCH_CONCURRENCY: "2,4",
        BENCH_PAIRS: "1",
        BENCH_SECONDS: "1.5",
        BENCH_WARMUP_SECONDS: "0.5",
        // The suite's other tests keep MariaDB writing: waiting for a clean buffer pool would take
        // the full 30 s before each of the six runs.
        BENCH_SETTLE_SECONDS: "1",
        BENCH_PARTITIONS: "4",
        BENCH_RESULTS_DIR: results,
      },
      output: { lines: {} },
    });
    // Killed before the test's own timeout, so a hang fails with the bench's output to read.
    const killer = setTimeout(() => bench.child.kill("SIGKILL"), 390_000);
    const code = await bench.exited;
    clearTimeout(killer);
    const output = bench.logs.join("\n");
    expect(code, output).toBe(0);
    expect(output).toContain("machine CPU ms per callback");
    expect(output).toContain("× the floor's");

    const result = JSON.parse(readFileSync(join(results, "latest.json"), "utf8"));
    expect(
      result.runs.map((run: { side: string; concurrency: number }) => `${run.side}@${run.concurrency}`),
    ).toEqual(["queued@2", "reference@2", "floor@2", "queued@4", "reference@4", "floor@4"]);
    for (const run of result.runs) {
      expect(run.summary.requests).toBeGreaterThan(0);
      expect(run.summary.statusesAll["200"]).toBeGreaterThan(0);
      expect(run.cpuMsPerCallback.machine).toBeGreaterThan(0);
      if (run.side !== "floor") expect(run.cpuMsPerCallback.mariadb).toBeGreaterThan(0);
    }
    expect(result.verification.reference.problems).toEqual([]);
    expect(result.verification.reference.wallets).toBe(64);
    expect(result.comparisons[0].ratios.throughput).toBeGreaterThan(0);
    expect(result.verification.passed).toBe(true);
    expect(result.verification.acknowledged).toBeGreaterThan(0);
    expect(result.verification.missing).toEqual([]);
    expect(readFileSync(join(results, "latest.svg"), "utf8")).toMatch(
      /^<svg[\s\S]*queued p99[\s\S]*<\/svg>$/,
    );
  }, 420_000);
});
