import { readFileSync } from "node:fs";
import { join } from "node:path";

export type MetricType = "counter" | "gauge" | "histogram" | "summary";

/** The metrics docs/metrics.md catalogues (its tables' `Metric` column), with their types. */
export function catalogueMetrics(repoRoot: string): Map<string, MetricType> {
  const text = readFileSync(join(repoRoot, "docs/metrics.md"), "utf8");
  const metrics = new Map<string, MetricType>();
  // A table row: | `name` | type | labels | meaning |
  for (const match of text.matchAll(
    /^\|\s*`([a-zA-Z_:][\w:]*)`\s*\|\s*(counter|gauge|histogram|summary)\s*\|/gm,
  )) {
    const [, name, type] = match;
    if (name && type) metrics.set(name, type as MetricType);
  }
  return metrics;
}

/**
 * prom-client's default metrics (collectDefaultMetrics, prom-client 15), which every process exports
 * besides its own; docs/metrics.md names a few and says "…".
 */
export const defaultProcessMetrics: ReadonlyMap<string, MetricType> = new Map<string, MetricType>([
  ["process_cpu_user_seconds_total", "counter"],
  ["process_cpu_system_seconds_total", "counter"],
  ["process_cpu_seconds_total", "counter"],
  ["process_start_time_seconds", "gauge"],
  ["process_resident_memory_bytes", "gauge"],
  ["process_virtual_memory_bytes", "gauge"],
  ["process_heap_bytes", "gauge"],
  ["process_open_fds", "gauge"],
  ["process_max_fds", "gauge"],
  ["nodejs_eventloop_lag_seconds", "gauge"],
  ["nodejs_eventloop_lag_min_seconds", "gauge"],
  ["nodejs_eventloop_lag_max_seconds", "gauge"],
  ["nodejs_eventloop_lag_mean_seconds", "gauge"],
  ["nodejs_eventloop_lag_stddev_seconds", "gauge"],
  ["nodejs_eventloop_lag_p50_seconds", "gauge"],
  ["nodejs_eventloop_lag_p90_seconds", "gauge"],
  ["nodejs_eventloop_lag_p99_seconds", "gauge"],
  ["nodejs_active_resources", "gauge"],
  ["nodejs_active_resources_total", "gauge"],
  ["nodejs_active_handles", "gauge"],
  ["nodejs_active_handles_total", "gauge"],
  ["nodejs_active_requests", "gauge"],
  ["nodejs_active_requests_total", "gauge"],
  ["nodejs_heap_size_total_bytes", "gauge"],
  ["nodejs_heap_size_used_bytes", "gauge"],
  ["nodejs_external_memory_bytes", "gauge"],
  ["nodejs_heap_space_size_total_bytes", "gauge"],
  ["nodejs_heap_space_size_used_bytes", "gauge"],
  ["nodejs_heap_space_size_available_bytes", "gauge"],
  ["nodejs_version_info", "gauge"],
  ["nodejs_gc_duration_seconds", "histogram"],
]);

/**
 * The metric a series name belongs to: a histogram's `_bucket`, `_sum` and `_count` series map to
 * the histogram (a summary's `_sum` and `_count` to the summary); any other name is its own metric.
 */
export function metricOfSeries(series: string, known: ReadonlyMap<string, MetricType>): string {
  const suffix = /_(bucket|sum|count)$/.exec(series);
  if (suffix?.[1]) {
    const base = series.slice(0, -suffix[0].length);
    const type = known.get(base);
    if (type === "histogram" || (type === "summary" && suffix[1] !== "bucket")) return base;
  }
  return series;
}
