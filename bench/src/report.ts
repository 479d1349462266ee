import { median } from "@wallet/telemetry/percentiles";
import type { LoadSummary } from "./load/config.ts";

export type Side = "queued" | "direct";

export interface RunResult {
  side: Side;
  concurrency: number;
  pair: number;
  summary: Omit<LoadSummary, "acknowledged">;
  /** CPU seconds each process group used from the window's start until its side effects were applied. */
  cpuSeconds: Record<string, number>;
  /** Side effects (outbox rows) not yet applied when the window closed, and the time to apply them. */
  sideEffects: { pendingAtEnd: number; drainSeconds: number };
  /** The same, per 1,000 callbacks answered in the window. */
  cpuPer1000: Record<string, number>;
}

export interface SideMedians {
  runs: number;
  throughput: number;
  p50: number;
  p99: number;
  max: number;
  /** 5xx and client timeouts summed over every run, warm-up included. */
  serverErrors: number;
  cpuPer1000: Record<string, number>;
}

export interface Comparison {
  concurrency: number;
  sides: Partial<Record<Side, SideMedians>>;
  /** queued ÷ direct of the medians. */
  ratios?: { throughput: number; p50: number; p99: number };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function serverErrors(statuses: Record<string, number>): number {
  return Object.entries(statuses).reduce(
    (sum, [status, count]) => sum + (Number(status) >= 500 || status === "0" ? count : 0),
    0,
  );
}

export function compare(runs: RunResult[], concurrency: number): Comparison {
  const sides: Comparison["sides"] = {};
  for (const side of ["queued", "direct"] as const) {
    const mine = runs.filter((run) => run.side === side && run.concurrency === concurrency);
    if (mine.length === 0) continue;
    const processes = Object.keys(mine[0]?.cpuPer1000 ?? {});
    sides[side] = {
      runs: mine.length,
      throughput: round(median(mine.map((run) => run.summary.throughput)), 1),
      p50: round(median(mine.map((run) => run.summary.latencyMs.p50))),
      p99: round(median(mine.map((run) => run.summary.latencyMs.p99))),
      max: round(median(mine.map((run) => run.summary.latencyMs.max))),
      serverErrors: mine.reduce((sum, run) => sum + serverErrors(run.summary.statusesAll), 0),
      cpuPer1000: Object.fromEntries(
        processes.map((name) => [name, round(median(mine.map((run) => run.cpuPer1000[name] ?? 0)), 3)]),
      ),
    };
  }
  const { queued, direct } = sides;
  const ratios =
    queued && direct
      ? {
          throughput: round(queued.throughput / direct.throughput),
          p50: round(queued.p50 / direct.p50),
          p99: round(queued.p99 / direct.p99),
        }
      : undefined;
  return { concurrency, sides, ratios };
}

/** The comparison as a plain-text table. */
export function formatComparison(comparison: Comparison): string {
  const { queued, direct } = comparison.sides;
  const cell = (value: number | undefined) => (value === undefined ? "-" : String(value)).padStart(10);
  const row = (label: string, q?: number, d?: number, ratio?: number) =>
    `  ${label.padEnd(28)}${cell(q)}${cell(d)}${cell(ratio)}`;
  const lines = [
    `concurrency ${comparison.concurrency} (median of ${queued?.runs ?? direct?.runs} runs per side)`,
    `  ${"".padEnd(28)}${"queued".padStart(10)}${"direct".padStart(10)}${"ratio".padStart(10)}`,
    row("throughput (callbacks/s)", queued?.throughput, direct?.throughput, comparison.ratios?.throughput),
    row("p50 latency (ms)", queued?.p50, direct?.p50, comparison.ratios?.p50),
    row("p99 latency (ms)", queued?.p99, direct?.p99, comparison.ratios?.p99),
    row("max latency (ms)", queued?.max, direct?.max),
    row("5xx + timeouts (all runs)", queued?.serverErrors, direct?.serverErrors),
    "  CPU seconds per 1,000 callbacks:",
  ];
  const processes = Object.keys(queued?.cpuPer1000 ?? direct?.cpuPer1000 ?? {});
  for (const name of processes)
    lines.push(row(`  ${name}`, queued?.cpuPer1000[name], direct?.cpuPer1000[name]));
  const total = (side?: SideMedians) =>
    side
      ? round(
          Object.values(side.cpuPer1000).reduce((sum, value) => sum + value, 0),
          3,
        )
      : undefined;
  lines.push(row("  all processes", total(queued), total(direct)));
  return lines.join("\n");
}
