import { parseScrape, type Scrape } from "@wallet/telemetry/testing/scrape";
import type { CampaignSystem } from "../system.ts";

/** The series of a scrape that may never go down within a process's life: counters, and histograms' and summaries' counts, sums and buckets. */
function monotonicSeries(scrape: Scrape): Map<string, number> {
  const series = new Map<string, number>();
  const families = [...scrape.types].filter(
    ([, type]) => type === "counter" || type === "histogram" || type === "summary",
  );
  const monotonic = new Set<string>();
  for (const [name, type] of families) {
    if (type === "counter") monotonic.add(name.endsWith("_total") ? name : `${name}_total`).add(name);
    else
      for (const suffix of type === "histogram" ? ["_bucket", "_sum", "_count"] : ["_sum", "_count"])
        monotonic.add(name + suffix);
  }
  for (const sample of scrape.samples)
    if (monotonic.has(sample.name)) {
      const labels = Object.entries(sample.labels)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => `${key}="${value}"`)
        .join(",");
      series.set(`${sample.name}{${labels}}`, sample.value);
    }
  return series;
}

/**
 * Rule 4: scrapes every live app's `/metrics` every `everyMs` while the campaign runs, and lists
 * every counter (and histogram count, sum or bucket) seen to go down within one process's life (a
 * restarted process is a new life, starting from 0 as Prometheus expects). A frozen or dead process
 * simply gives no sample.
 */
export class CounterWatch {
  readonly problems: string[] = [];
  scrapes = 0;
  private readonly last = new Map<number, Map<string, number>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly system: CampaignSystem,
    private readonly everyMs = 2_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.sample());
    }, this.everyMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.sample();
  }

  private async sample(): Promise<void> {
    const live = this.system.faults.processes.filter(
      (proc) => proc.metricsPort && proc.child.exitCode === null && proc.child.signalCode === null,
    );
    await Promise.all(
      live.map(async (proc) => {
        const pid = proc.child.pid ?? 0;
        let text: string;
        try {
          const response = await fetch(`http://127.0.0.1:${proc.metricsPort}/metrics`, {
            signal: AbortSignal.timeout(1_500),
          });
          text = await response.text();
          if (!response.ok) return;
        } catch {
          return;
        }
        this.scrapes += 1;
        const now = monotonicSeries(parseScrape(text));
        const before = this.last.get(pid);
        if (before)
          for (const [series, value] of before) {
            const after = now.get(series);
            if (after !== undefined && after < value)
              this.problems.push(`${proc.name} pid ${pid}: ${series} went from ${value} to ${after}`);
            if (after === undefined && value > 0)
              this.problems.push(`${proc.name} pid ${pid}: ${series} (${value}) no longer served`);
          }
        this.last.set(pid, now);
      }),
    );
  }
}
