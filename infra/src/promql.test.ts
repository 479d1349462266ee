import { describe, expect, it } from "vitest";
import { metricNamesIn } from "./promql.ts";

describe("metricNamesIn", () => {
  it("reads a histogram quantile's bucket, not its grouping labels, matcher values or range", () => {
    const expr = `histogram_quantile(0.99, sum by (le, endpoint) (rate(wallet_callback_duration_seconds_bucket{status=~"5.."}[5m])))`;
    expect(metricNamesIn(expr)).toEqual(["wallet_callback_duration_seconds_bucket"]);
  });

  it("reads a grouping list written after the aggregation", () => {
    const expr = "sum(rate(wallet_ledger_queue_wait_seconds_bucket[$__rate_interval])) by (le, partition)";
    expect(metricNamesIn(expr)).toEqual(["wallet_ledger_queue_wait_seconds_bucket"]);
  });

  it("reads inside absent() and ignores the comparison", () => {
    expect(metricNamesIn('absent(up{job="wallet-worker"} == 1)')).toEqual(["up"]);
  });

  it("ignores on() and vector(0) in a fallback", () => {
    expect(metricNamesIn("max(wallet_workers_live) == 0 or on() vector(0)")).toEqual(["wallet_workers_live"]);
  });

  it("ignores label_replace's string arguments, even ones that look like selectors", () => {
    const expr = 'label_replace(wallet_dependency_up, "target", "$1:{x}", "dependency", "(.*)")';
    expect(metricNamesIn(expr)).toEqual(["wallet_dependency_up"]);
  });

  it("ignores clamp_min and its number", () => {
    expect(metricNamesIn("clamp_min(wallet_outbox_pending_rows, 1e-3)")).toEqual([
      "wallet_outbox_pending_rows",
    ]);
  });

  it("reads both sides of arithmetic and ignores the constants", () => {
    expect(metricNamesIn("1 - (a_total / b_total) * 100 + 0x1F")).toEqual(["a_total", "b_total"]);
  });

  it("keeps recording-rule names with colons whole", () => {
    const expr =
      "wallet:callback_error_ratio:rate1h > (14.4 * 0.001) and wallet:callback_error_ratio:rate5m > (14.4 * 0.001)";
    expect(metricNamesIn(expr)).toEqual([
      "wallet:callback_error_ratio:rate1h",
      "wallet:callback_error_ratio:rate5m",
    ]);
  });

  it("ignores keywords, vector matching lists, offsets and bool", () => {
    const expr = `sum by (queue) (rate(a_total[5m] offset 1h30m)) > bool 0
      unless ignoring (instance) group_left (queue) b_total
      or c_total without (x)`;
    expect(metricNamesIn(expr)).toEqual(["a_total", "b_total", "c_total"]);
  });

  it("ignores comments, quotes inside them included", () => {
    expect(metricNamesIn('# don\'t count me\nup # nor "me"')).toEqual(["up"]);
  });

  it("reads a name given as a __name__ matcher", () => {
    expect(metricNamesIn('{__name__="wallet_workers_live", job="wallet-gateway"}')).toEqual([
      "wallet_workers_live",
    ]);
  });

  it("ignores subquery ranges, @ modifiers and Grafana variables", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Grafana variable, not a JavaScript template
    const expr = "max_over_time(deriv(x_seconds[5m])[1h:1m]) @ end() / ${scale} + y_total @ 1609746000";
    expect(metricNamesIn(expr)).toEqual(["x_seconds", "y_total"]);
  });

  it("reports each name once", () => {
    expect(metricNamesIn("rate(a_total[5m]) / rate(a_total[1h])")).toEqual(["a_total"]);
  });

  it("finds nothing in a pure number or vector()", () => {
    expect(metricNamesIn("vector(1) * 0.5 + Inf - NaN")).toEqual([]);
  });
});
