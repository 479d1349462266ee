import { percentile } from "@wallet/telemetry/percentiles";
import { round } from "../../stats.ts";
import type { PlayersResult } from "./config.ts";

/** Other players' sends answered inside a window, and what became of the 5xx among them. */
export interface PlayersWindow {
  sends: number;
  /** Status → count (0: timed out or no connection). */
  statuses: Record<string, number>;
  p99Ms: number;
  maxMs: number;
  /** Sends answered 5xx or timed out. */
  errors: number;
  /** Of those, the ones whose callback was answered 200 by a later send, within the contract's sends. */
  absorbed: number;
}

const isError = (status: number) => status === 0 || status >= 500;

/** The sends of every process in `results` answered between `from` and `to` (ms since the epoch). */
export function playersWindow(results: PlayersResult[], from: number, to: number): PlayersWindow {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let absorbed = 0;
  for (const { sends, callbacks } of results) {
    for (const [at, ms, status, callback] of sends) {
      if (at < from || at > to) continue;
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (!isError(status)) continue;
      errors += 1;
      if (callbacks[callback]?.[0] === 200) absorbed += 1;
    }
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    sends: latencies.length,
    statuses,
    p99Ms: round(percentile(sorted, 0.99), 1),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN, 1),
    errors,
    absorbed,
  };
}
