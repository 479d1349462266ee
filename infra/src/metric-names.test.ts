import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  catalogueMetrics,
  defaultProcessMetrics,
  type MetricType,
  metricOfSeries,
} from "./metric-catalogue.ts";
import { allExpressions, metricNamesIn } from "./promql.ts";

const repoRoot = resolve(import.meta.dirname, "../..");
const catalogue = catalogueMetrics(repoRoot);
const known = new Map<string, MetricType>([...catalogue, ...defaultProcessMetrics]);
const { expressions, recorded } = allExpressions(repoRoot);

describe("metric names in dashboards and rules", () => {
  it("reads the catalogue from docs/metrics.md", () => {
    expect(catalogue.get("wallet_callback_duration_seconds")).toBe("histogram");
    expect(catalogue.get("wallet_outbox_oldest_pending_age_seconds")).toBe("gauge");
    expect(catalogue.size).toBeGreaterThanOrEqual(25);
  });

  it("finds the dashboards' and rules' expressions and the recording rules' names", () => {
    const files = new Set(expressions.map((found) => found.file));
    expect([...files].filter((file) => file.endsWith(".json"))).toHaveLength(4);
    expect([...files].filter((file) => file.endsWith(".yml")).length).toBeGreaterThanOrEqual(4);
    expect(recorded).toContain("wallet:callback_error_ratio:rate5m");
    expect(expressions.some((found) => found.where.startsWith("variable "))).toBe(true);
  });

  it("every name used is catalogued in docs/metrics.md, a default process metric, `up` or a recording rule", () => {
    const unknown: string[] = [];
    for (const { file, where, expr } of expressions) {
      for (const name of metricNamesIn(expr)) {
        if (name === "up" || recorded.has(name) || known.has(metricOfSeries(name, known))) continue;
        unknown.push(`${name} (${file}: ${where})`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it("histograms are read through their series, never by their bare name", () => {
    const bare: string[] = [];
    for (const { file, where, expr } of expressions) {
      for (const name of metricNamesIn(expr)) {
        if (known.get(name) === "histogram") bare.push(`${name} (${file}: ${where})`);
      }
    }
    expect(bare).toEqual([]);
  });

  it("every recording rule is used by an alert or a dashboard", () => {
    const used = new Set(expressions.flatMap(({ expr }) => metricNamesIn(expr)));
    expect([...recorded].filter((name) => !used.has(name))).toEqual([]);
  });
});
