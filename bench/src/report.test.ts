import { median, percentile } from "@wallet/telemetry/percentiles";
import { describe, expect, it } from "vitest";
import { compare, type RunResult, serverErrors } from "./report.ts";
import type { Side } from "./sides.ts";

function run(side: Side, concurrency: number, throughput: number, p99: number, machineMs: number): RunResult {
  return {
    side,
    concurrency,
    pair: 1,
    summary: {
      requests: throughput * 10,
      windowSeconds: 10,
      throughput,
      latencyMs: { p50: p99 / 4, p90: p99 / 2, p99, p999: p99, max: p99 * 2 },
      byAction: {},
      statuses: { 200: throughput * 10 },
      statusesAll: { 200: throughput * 10, 503: side === "queued" ? 1 : 0 },
      duplicatesSent: 0,
      duplicateMismatches: 0,
      cycles: 0,
    },
    cpuSeconds: { worker: 1 },
    sideEffects: { pendingAtEnd: 0, drainSeconds: 0, lagMs: { p50: 0, p99: 0, max: 0 } },
    cpuMsPerCallback: { machine: machineMs, worker: throughput / 100 },
  };
}

describe("benchmark statistics", () => {
  it("takes nearest-rank percentiles and medians", () => {
    const sorted = Float64Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 1)).toBe(100);
    expect(percentile([], 0.5)).toBeNaN();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it("quotes the median of each side, queued ÷ reference ratios and multiples of the floor", () => {
    const runs = [
      run("queued", 64, 300, 40, 1.2),
      run("reference", 64, 200, 50, 2),
      run("floor", 64, 2000, 5, 0.5),
      run("queued", 64, 100, 80, 1.6),
      run("reference", 64, 400, 30, 1.8),
      run("floor", 64, 1800, 7, 0.5),
      run("queued", 16, 999, 1, 9),
    ];
    const comparison = compare(runs, 64);
    expect(comparison.sides.queued?.runs).toBe(2);
    expect(comparison.sides.queued?.throughput).toBe(200);
    expect(comparison.sides.reference?.throughput).toBe(300);
    expect(comparison.sides.queued?.p99).toBe(60);
    expect(comparison.ratios?.throughput).toBe(0.67);
    expect(comparison.ratios?.machineCpu).toBe(0.74);
    expect(comparison.sides.queued?.timesFloor).toBe(2.8);
    expect(comparison.sides.reference?.timesFloor).toBe(3.8);
    expect(comparison.sides.queued?.serverErrors).toBe(2);
    expect(comparison.sides.reference?.serverErrors).toBe(0);
    expect(comparison.sides.queued?.cpuMsPerCallback.worker).toBe(2);
  });

  it("counts 5xx and client timeouts (status 0) as server errors, never 4xx", () => {
    expect(serverErrors({ 200: 10, 402: 3, 500: 1, 503: 2, 0: 4 })).toBe(7);
  });
});
