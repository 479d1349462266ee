import { dependencies } from "./dependencies.ts";
import { buildDashboard, type DashboardSpec } from "./grafana.ts";
import { ledgerSideEffects } from "./ledger-side-effects.ts";
import { queuesWorkers } from "./queues-workers.ts";
import { serviceOverview } from "./service-overview.ts";

/** Every provisioned dashboard, in the order they are listed. */
export const dashboardSpecs: DashboardSpec[] = [
  serviceOverview,
  queuesWorkers,
  ledgerSideEffects,
  dependencies,
];

/** Where the generated JSON lives (Grafana provisions this folder). */
export const dashboardsOutDir = "infra/grafana/dashboards";

/** File name → exact file content of every dashboard, as committed. */
export function renderDashboards(): Map<string, string> {
  return new Map(
    dashboardSpecs.map((spec) => [`${spec.uid}.json`, `${JSON.stringify(buildDashboard(spec), null, 2)}\n`]),
  );
}
