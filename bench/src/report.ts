import { median } from "@wallet/telemetry/percentiles";
import type { Lag } from "./drain.ts";
import type { LoadSummary } from "./load/config.ts";
import { type Side, sides } from "./sides.ts";
import { round } from "./stats.ts";

export interface RunResult {
  side: Side;
  concurrency: number;
  pair: number;
  summary: Omit<LoadSummary, "acknowledged">;
  /**
   * CPU seconds each process group used from the window's start until its side effects were
   * applied; `machine` is every process on the machine (busy jiffies from /proc/stat).
   */
  cpuSeconds: Record<string, number>;
  /** Side effects (outbox rows) not yet applied when the window closed, and the time to apply them. */
  sideEffects: { pendingAtEnd: number; drainSeconds: number; lagMs: Lag };
  /** `BENCH_SERVER_STATS=1`: MariaDB status and Redis command deltas per callback in the window. */
  serverStats?: Record<string, number>;
  /** The same, in CPU milliseconds per callback answered in the window. */
  cpuMsPerCallback: Record<string, number>;
}

export interface SideMedians {
  runs: number;
  throughput: number;
  p50: number;
  p99: number;
  max: number;
  /** 5xx and client timeouts summed over every run, warm-up included. */
  serverErrors: number;
  cpuMsPerCallback: Record<string, number>;
  /** The machine's CPU per callback as a multiple of the floor's (undefined without a floor run). */
  timesFloor?: number;
}

export interface Comparison {
  concurrency: number;
  sides: Partial<Record<Side, SideMedians>>;
  /** queued ÷ reference of the medians. */
  ratios?: { throughput: number; p50: number; p99: number; machineCpu: number };
}

export function serverErrors(statuses: Record<string, number>): number {
  return Object.entries(statuses).reduce(
    (sum, [status, count]) => sum + (Number(status) >= 500 || status === "0" ? count : 0),
    0,
  );
}

export function compare(runs: RunResult[], concurrency: number): Comparison {
  const found: Comparison["sides"] = {};
  for (const side of sides) {
    const mine = runs.filter((run) => run.side === side && run.concurrency === concurrency);
    if (mine.length === 0) continue;
    const processes = Object.keys(mine[0]?.cpuMsPerCallback ?? {});
    found[side] = {
      runs: mine.length,
      throughput: round(median(mine.map((run) => run.summary.throughput)), 1),
      p50: round(median(mine.map((run) => run.summary.latencyMs.p50))),
      p99: round(median(mine.map((run) => run.summary.latencyMs.p99))),
      max: round(median(mine.map((run) => run.summary.latencyMs.max))),
      serverErrors: mine.reduce((sum, run) => sum + serverErrors(run.summary.statusesAll), 0),
      cpuMsPerCallback: Object.fromEntries(
        processes.map((name) => [name, round(median(mine.map((run) => run.cpuMsPerCallback[name] ?? 0)), 3)]),
      ),
    };
  }
  const floorCpu = found.floor?.cpuMsPerCallback.machine;
  for (const medians of Object.values(found)) {
    const machine = medians.cpuMsPerCallback.machine;
    if (floorCpu && machine !== undefined) medians.timesFloor = round(machine / floorCpu, 1);
  }
  const { queued, reference } = found;
  const ratios =
    queued && reference
      ? {
          throughput: round(queued.throughput / reference.throughput),
          p50: round(queued.p50 / reference.p50),
          p99: round(queued.p99 / reference.p99),
          machineCpu: round(
            (queued.cpuMsPerCallback.machine ?? 0) / (reference.cpuMsPerCallback.machine ?? 1),
          ),
        }
      : undefined;
  return { concurrency, sides: found, ratios };
}

/** The comparison as a plain-text table: a column per side, then queued ÷ reference. */
export function formatComparison(comparison: Comparison): string {
  const present = sides.filter((side) => comparison.sides[side]);
  const cell = (value: number | string | undefined) =>
    (value === undefined ? "-" : String(value)).padStart(11);
  const row = (label: string, pick: (medians: SideMedians) => number | undefined, ratio?: number) =>
    `  ${label.padEnd(34)}${present.map((side) => cell(pick(comparison.sides[side] as SideMedians))).join("")}${
      ratio === undefined ? "" : cell(ratio)
    }`;
  const { ratios } = comparison;
  const runs = present.map((side) => comparison.sides[side]?.runs).join("/");
  const lines = [
    `concurrency ${comparison.concurrency} (medians of ${runs} runs)`,
    `  ${"".padEnd(34)}${present.map((side) => cell(side)).join("")}${ratios ? cell("q ÷ ref") : ""}`,
    row("throughput (callbacks/s)", (m) => m.throughput, ratios?.throughput),
    row("p50 latency (ms)", (m) => m.p50, ratios?.p50),
    row("p99 latency (ms)", (m) => m.p99, ratios?.p99),
    row("max latency (ms)", (m) => m.max),
    row("5xx + timeouts (all runs)", (m) => m.serverErrors),
    row("machine CPU ms per callback", (m) => m.cpuMsPerCallback.machine, ratios?.machineCpu),
    row("  × the floor's", (m) => m.timesFloor),
    "  CPU ms per callback by process:",
  ];
  const processes = new Set(
    present.flatMap((side) => Object.keys(comparison.sides[side]?.cpuMsPerCallback ?? {})),
  );
  processes.delete("machine");
  for (const name of processes) {
    const used = present.some((side) => (comparison.sides[side]?.cpuMsPerCallback[name] ?? 0) >= 0.005);
    if (used) lines.push(row(`    ${name}`, (m) => m.cpuMsPerCallback[name]));
  }
  return lines.join("\n");
}
