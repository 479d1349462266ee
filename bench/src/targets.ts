import type { Comparison } from "./report.ts";

export interface Target {
  name: string;
  value: number | undefined;
  met: boolean;
}

/**
 * The performance issue's targets (issue 16), read off the medians. Reported, never a failure of
 * the run: they depend on the machine, and the benchmark's job is to print numbers.
 */
export function evaluateTargets(comparisons: Comparison[]): Target[] {
  const at = (concurrency: number) =>
    comparisons.find((comparison) => comparison.concurrency === concurrency);
  const targets: Target[] = [];
  const atMost = (name: string, value: number | undefined, limit: number) =>
    targets.push({ name, value, met: value !== undefined && value <= limit });
  const atLeast = (name: string, value: number | undefined, limit: number) =>
    targets.push({ name, value, met: value !== undefined && value >= limit });
  atLeast("queued ÷ reference throughput at c64 ≥ 1.2", at(64)?.ratios?.throughput, 1.2);
  atLeast("queued ÷ reference throughput at c16 ≥ 0.9", at(16)?.ratios?.throughput, 0.9);
  atMost("queued ÷ reference machine CPU per callback at c64 ≤ 0.9", at(64)?.ratios?.machineCpu, 0.9);
  atMost("queued ÷ reference p99 at c16 ≤ 1.25", at(16)?.ratios?.p99, 1.25);
  const errors = [16, 64].map((concurrency) => at(concurrency)?.sides.queued?.serverErrors);
  const known = errors.every((count) => count !== undefined);
  atMost(
    "queued 5xx + timeouts at c16 and c64 = 0",
    known ? errors.reduce((a = 0, b = 0) => a + b, 0) : undefined,
    0,
  );
  atMost("queued p50 at c1 ≤ 5 ms", at(1)?.sides.queued?.p50, 5);
  return targets;
}
