import type { Histogram, Registry } from "prom-client";

/**
 * The 5xx series of `wallet_callback_duration_seconds_count` in a registry, as
 * `["<endpoint> <action> <status>", count]`: what the error-budget alerts sum with rate().
 */
export async function unavailableSeries(registry: Registry): Promise<Array<[string, number]>> {
  const histogram = registry.getSingleMetric("wallet_callback_duration_seconds") as Histogram | undefined;
  if (!histogram) throw new Error("wallet_callback_duration_seconds is not registered");
  return (await histogram.get()).values
    .filter(
      (value) =>
        value.metricName === "wallet_callback_duration_seconds_count" &&
        /^5\d\d$/.test(String(value.labels.status)),
    )
    .map((value) => [`${value.labels.endpoint} ${value.labels.action} ${value.labels.status}`, value.value]);
}
