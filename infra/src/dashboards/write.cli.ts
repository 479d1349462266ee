// Regenerates infra/grafana/dashboards/*.json from the specs: `pnpm --filter @wallet/infra dashboards`.
// Commit the result; a unit test fails while the committed JSON differs from what this writes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dashboardsOutDir, renderDashboards } from "./all.ts";

const outDir = resolve(import.meta.dirname, "../../..", dashboardsOutDir);
mkdirSync(outDir, { recursive: true });
const files = renderDashboards();
// A renamed dashboard must not leave its old file behind for Grafana to keep provisioning.
for (const name of readdirSync(outDir)) {
  if (name.endsWith(".json") && !files.has(name)) rmSync(join(outDir, name));
}
for (const [name, content] of files) writeFileSync(join(outDir, name), content);
console.log(`wrote ${files.size} dashboards to ${dashboardsOutDir}`);
