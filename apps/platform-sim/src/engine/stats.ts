import { percentile } from "@wallet/telemetry/percentiles";

/** What the simulator saw: callbacks by action and status, latencies, rounds. */
export class SimStats {
  rounds = 0;
  roundsClosed = 0;
  roundsVoided = 0;
  retries = 0;
  /** Rounds left unclosed because a per-bet callback was never acknowledged with 200. */
  roundsUnclosable = 0;
  readonly byLabel = new Map<string, number>();
  private readonly latencies: number[] = [];

  record(label: string, status: number, ms: number, retry: boolean): void {
    const key = `${label} ${status === 0 ? "no answer" : status}`;
    this.byLabel.set(key, (this.byLabel.get(key) ?? 0) + 1);
    this.latencies.push(ms);
    if (retry) this.retries += 1;
  }

  percentile(q: number): number {
    if (this.latencies.length === 0) return 0;
    return percentile(Float64Array.from(this.latencies).sort(), q);
  }

  toJSON() {
    return {
      rounds: this.rounds,
      roundsClosed: this.roundsClosed,
      roundsVoided: this.roundsVoided,
      roundsUnclosable: this.roundsUnclosable,
      callbacks: this.latencies.length,
      retries: this.retries,
      byStatus: Object.fromEntries([...this.byLabel].sort()),
      latencyMs: {
        p50: round(this.percentile(0.5)),
        p99: round(this.percentile(0.99)),
        max: round(this.percentile(1)),
      },
    };
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
