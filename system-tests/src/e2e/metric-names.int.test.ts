import { fileURLToPath } from "node:url";
import { allExpressions, metricNamesIn } from "@wallet/infra/promql";
import { exportedNames } from "@wallet/telemetry/testing/scrape";
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
});
