import { type Scrape, scrape } from "@wallet/telemetry/testing/scrape";

/** Counters of the worker read around each close, by label value. */
export type Counters = Record<string, number>;

const byLabel = (result: Scrape, name: string, label: string): Counters => {
  const counters: Counters = {};
  for (const sample of result.samples)
    if (sample.name === name) {
      const key = sample.labels[label] ?? "";
      counters[key] = (counters[key] ?? 0) + sample.value;
    }
  return counters;
};

/**
 * The worker's jobs taken back after their lock lapsed (`wallet_jobs_stalled_total{queue}`) and jobs
 * that threw (`wallet_jobs_failed_total{queue}`: a lost lock shows there too), both versions; its
 * close intake's results (`wallet_close_intake_total{result}`, the current version only).
 */
export interface WorkerCounters {
  stalled: Counters;
  failed: Counters;
  intake: Counters;
}

export async function workerCounters(metricsPort: number | undefined): Promise<WorkerCounters> {
  if (metricsPort === undefined) return { stalled: {}, failed: {}, intake: {} };
  const result = await scrape(metricsPort);
  return {
    stalled: byLabel(result, "wallet_jobs_stalled_total", "queue"),
    failed: byLabel(result, "wallet_jobs_failed_total", "queue"),
    intake: byLabel(result, "wallet_close_intake_total", "result"),
  };
}

/** after − before, per label, leaving out the zeros. */
export function counterDelta(before: Counters, after: Counters): Counters {
  const delta: Counters = {};
  for (const [key, value] of Object.entries(after)) {
    const grown = value - (before[key] ?? 0);
    if (grown !== 0) delta[key] = grown;
  }
  return delta;
}
