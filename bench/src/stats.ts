import { percentile } from "@wallet/telemetry/percentiles";

/** Rounds for the JSON: two decimals unless told, enough for milliseconds and per-callback counts. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Count, mean, p50, p99 and max of a list of request times in ms (the shape every scaling phase reports). */
export function latency(values: number[]) {
  const sorted = Float64Array.from(values).sort();
  const mean = values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    count: values.length,
    meanMs: round(mean),
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}
