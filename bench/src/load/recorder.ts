import { percentile } from "@wallet/telemetry/percentiles";
import type { Acknowledged, LoadSummary } from "./config.ts";

/** Latencies and statuses of the measured window, plus every 200 of the whole run. */
export class Recorder {
  private latencies = new Float64Array(1 << 16);
  private count = 0;
  private windowStart = Number.POSITIVE_INFINITY;
  private windowEnd = Number.POSITIVE_INFINITY;
  readonly statuses: Record<string, number> = {};
  readonly statusesAll: Record<string, number> = {};
  readonly acknowledged: Acknowledged[] = [];
  private readonly byAction = new Map<string, number[]>();
  duplicatesSent = 0;
  duplicateMismatches = 0;
  cycles = 0;

  window(start: number, end: number): void {
    this.windowStart = start;
    this.windowEnd = end;
  }

  /** A request that finished at `end` after `latencyMs`. */
  record(end: number, latencyMs: number, status: number, action: string): void {
    this.statusesAll[status] = (this.statusesAll[status] ?? 0) + 1;
    if (end < this.windowStart || end > this.windowEnd) return;
    const mine = this.byAction.get(action) ?? [];
    mine.push(latencyMs);
    this.byAction.set(action, mine);
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (this.count === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.count++] = latencyMs;
  }

  summary(): LoadSummary {
    const sorted = this.latencies.slice(0, this.count).sort();
    const windowSeconds = (this.windowEnd - this.windowStart) / 1000;
    const round = (ms: number) => Math.round(ms * 100) / 100;
    const byAction = Object.fromEntries(
      [...this.byAction].map(([action, values]) => {
        const ordered = Float64Array.from(values).sort();
        return [
          action,
          {
            count: ordered.length,
            p50: round(percentile(ordered, 0.5)),
            p99: round(percentile(ordered, 0.99)),
          },
        ];
      }),
    );
    return {
      requests: this.count,
      windowSeconds,
      throughput: Math.round((this.count / windowSeconds) * 10) / 10,
      latencyMs: {
        p50: round(percentile(sorted, 0.5)),
        p90: round(percentile(sorted, 0.9)),
        p99: round(percentile(sorted, 0.99)),
        p999: round(percentile(sorted, 0.999)),
        max: round(sorted[sorted.length - 1] ?? Number.NaN),
      },
      byAction,
      statuses: this.statuses,
      statusesAll: this.statusesAll,
      duplicatesSent: this.duplicatesSent,
      duplicateMismatches: this.duplicateMismatches,
      cycles: this.cycles,
      acknowledged: this.acknowledged,
    };
  }
}
