import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { grafanaExpr, grafanaInterval, legendOf, readDashboards } from "./grafana-panels.ts";

const repoRoot = resolve(import.meta.dirname, "../..");

describe("Grafana's variables, filled in as Grafana fills them", () => {
  const dashboard = { variables: [{ name: "endpoint", allValue: ".*" }] };

  it("$__interval is the range over the points, never below the scrape interval", () => {
    expect(grafanaInterval({ rangeSeconds: 60, scrapeSeconds: 1 })).toBe(1);
    expect(grafanaInterval({ rangeSeconds: 6 * 3600, scrapeSeconds: 15 })).toBe(36);
    expect(grafanaInterval({ rangeSeconds: 3600, scrapeSeconds: 15, maxDataPoints: 100 })).toBe(36);
  });

  it("$__rate_interval is max($__interval + scrape, 4 × scrape); template variables take their All value", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's ${variable} syntax, not a template.
    const expr = 'sum(rate(x{endpoint=~"$endpoint", b="${endpoint}"}[$__rate_interval])) / $__interval';
    expect(grafanaExpr(expr, dashboard, { rangeSeconds: 60, scrapeSeconds: 1 })).toBe(
      'sum(rate(x{endpoint=~".*", b=".*"}[4s])) / 1s',
    );
    expect(grafanaExpr(expr, dashboard, { rangeSeconds: 6 * 3600, scrapeSeconds: 15 })).toBe(
      'sum(rate(x{endpoint=~".*", b=".*"}[60s])) / 36s',
    );
  });

  it("a variable's name inside a longer word is left alone", () => {
    const expr = 'x{a="$endpoints"}';
    expect(grafanaExpr(expr, dashboard, { rangeSeconds: 60, scrapeSeconds: 1 })).toBe(expr);
  });

  it("legends fill {{label}}, or list every label for __auto", () => {
    expect(legendOf("{{endpoint}} {{ status }}", { endpoint: "withdraw", status: "503" })).toBe(
      "withdraw 503",
    );
    expect(legendOf("__auto", { __name__: "up", job: "wallet-worker" })).toBe('{job="wallet-worker"}');
    expect(legendOf("", { __name__: "up" })).toBe("up");
  });
});

describe("the committed dashboards, read as panels", () => {
  const dashboards = readDashboards(repoRoot);

  it("every panel has a title, a description, a place on the grid and at least one query", () => {
    expect(dashboards.map((dashboard) => dashboard.uid).sort()).toEqual([
      "wallet-dependencies",
      "wallet-ledger",
      "wallet-overview",
      "wallet-queues",
    ]);
    for (const panel of dashboards.flatMap((dashboard) => dashboard.panels)) {
      expect(panel.title).not.toBe("");
      expect(panel.description.length, panel.title).toBeGreaterThan(20);
      expect(panel.gridPos.w, panel.title).toBeGreaterThan(0);
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
    }
  });

  it("panels keep the row they sit under", () => {
    const overview = dashboards.find((dashboard) => dashboard.uid === "wallet-overview");
    const panel = overview?.panels.find((candidate) => candidate.title === "Deadline timeouts (503)");
    expect(panel?.row).toBe("Admission and deadlines");
  });
});
