import { fileURLToPath } from "node:url";
import { allExpressions, metricNamesIn } from "@wallet/infra/promql";
import { exportedNames, type Scrape } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, scrapeOf, useTestSystem } from "../harness/system.ts";

// Dashboards and alerts that name a metric no service exports show "No data" and never fire: this
// checks every PromQL expression in infra/ against what the three running services really serve.
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const system = useTestSystem();
let services: AppProcess[] = [];
beforeAll(async () => {
  services = [await system.startWorker(), await system.startGateway(), await system.startOperatorApi()];
}, 60_000);

describe("dashboards and alert rules", () => {
  it("use only metric names the running gateway, worker and operator API export", async () => {
    const exported = new Set<string>(["up"]); // `up` is Prometheus's own, per scrape target
    for (const service of services)
      for (const name of exportedNames(await scrapeOf(service))) exported.add(name);
    const { expressions, recorded } = allExpressions(repoRoot);
    expect(expressions.length).toBeGreaterThan(50);

    const unknown: string[] = [];
    const used = new Set<string>();
    for (const { file, where, expr } of expressions) {
      for (const name of metricNamesIn(expr)) {
        used.add(name);
        // mysqld_exporter's (docs/metrics.md), not these services': the observability suite checks
        // them against a real exporter scraping MariaDB (faults/src/observability).
        if (name.startsWith("mysql_")) continue;
        if (!exported.has(name) && !recorded.has(name)) unknown.push(`${file} ${where}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
    // And the check is not vacuous: the dashboards read the core series of each service.
    for (const name of [
      "wallet_callback_duration_seconds_bucket",
      "wallet_ledger_outcomes_total",
      "wallet_outbox_oldest_pending_age_seconds",
      "wallet_operator_api_request_duration_seconds_count",
    ]) {
      expect(used.has(name), name).toBe(true);
    }
  });

  it("every counter an alert reads with increase() is at 0 from start-up, for each label set it can take", async () => {
    // A series that first appears at 5 (five jobs stalled at once after a crash) reads as no
    // increase at all: the alert would stay quiet through the very event it exists for.
    const scrapes: Scrape[] = await Promise.all(services.map((service) => scrapeOf(service)));
    const samplesOf = (name: string) =>
      scrapes.flatMap((scrape) => scrape.samples.filter((s) => s.name === name));
    const alerted = new Set<string>();
    for (const { file, expr } of allExpressions(repoRoot).expressions)
      if (file.includes("prometheus"))
        for (const [, name] of expr.matchAll(/increase\((wallet_[a-z_]+)/g)) if (name) alerted.add(name);
    expect(alerted.size).toBeGreaterThanOrEqual(6);
    const missing = [...alerted].filter((name) => samplesOf(name).length === 0);
    expect(missing).toEqual([]);
    // Nothing happened yet, so every one of them reads 0, with its label sets present.
    for (const name of alerted)
      expect(
        samplesOf(name).every((sample) => sample.value === 0),
        name,
      ).toBe(true);
    const labelValues = (name: string, label: string) =>
      new Set(samplesOf(name).map((sample) => sample.labels[label]));
    expect(labelValues("wallet_jobs_stalled_total", "queue")).toEqual(
      new Set([
        "ledger",
        "close-intake",
        "side-effects-loyalty",
        "side-effects-tournaments",
        "side-effects-reporting",
        "side-effects-rg",
      ]),
    );
    expect(labelValues("wallet_jobs_failed_total", "queue")).toEqual(
      labelValues("wallet_jobs_stalled_total", "queue"),
    );
    for (const name of ["wallet_callback_deadline_exceeded_total", "wallet_callback_shed_total"])
      expect(labelValues(name, "endpoint"), name).toEqual(
        new Set(["auth", "withdraw", "deposit", "balance"]),
      );
    expect(labelValues("wallet_signature_failures_total", "reason")).toEqual(
      new Set([
        "missing_public_key",
        "unknown_public_key",
        "missing_signature",
        "malformed_signature",
        "mismatch",
      ]),
    );
  });
});
