import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dashboardsDir } from "./promql.ts";

/** One query of a panel, as Grafana sends it to Prometheus (before its variables are filled in). */
export interface PanelTarget {
  refId: string;
  expr: string;
  legendFormat: string;
  /** Stat panels ask for one value at the end of the range. */
  instant: boolean;
}

/** A panel of a committed dashboard, with what a reader (or a renderer) needs of it. */
export interface DashboardPanel {
  id: number;
  title: string;
  description: string;
  kind: "timeseries" | "stat";
  unit?: string;
  gridPos: { x: number; y: number; w: number; h: number };
  /** The title of the row it sits under. */
  row?: string;
  /** Colour steps: the base colour (`value` null), then each from its value on. */
  thresholds?: Array<{ value: number | null; color: string }>;
  /** Value → text a stat shows instead of the number (`{ "0": "DOWN" }`). */
  mappings?: Record<string, string>;
  targets: PanelTarget[];
}

export interface DashboardVariable {
  name: string;
  /** The value an "All" selection stands for (Grafana's `allValue`). */
  allValue?: string;
}

export interface Dashboard {
  file: string;
  uid: string;
  title: string;
  variables: DashboardVariable[];
  panels: DashboardPanel[];
}

interface RawPanel {
  id: number;
  type: string;
  title: string;
  description?: string;
  gridPos: DashboardPanel["gridPos"];
  fieldConfig?: {
    defaults?: {
      unit?: string;
      thresholds?: { steps?: Array<{ value: number | null; color: string }> };
      mappings?: Array<{ type: string; options?: Record<string, { text: string }> }>;
    };
  };
  targets?: Array<{ refId: string; expr: string; legendFormat?: string; instant?: boolean }>;
  panels?: RawPanel[];
}

/** Every dashboard in `infra/grafana/dashboards`, its panels in layout order (rows' nested panels included). */
export function readDashboards(repoRoot: string): Dashboard[] {
  const dir = join(repoRoot, dashboardsDir);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => {
      const raw = JSON.parse(readFileSync(join(dir, name), "utf8")) as {
        uid: string;
        title: string;
        templating?: { list?: Array<{ name: string; allValue?: string }> };
        panels?: RawPanel[];
      };
      const panels: DashboardPanel[] = [];
      let row: string | undefined;
      const visit = (panel: RawPanel) => {
        if (panel.type === "row") {
          row = panel.title;
          for (const nested of panel.panels ?? []) visit(nested);
          return;
        }
        panels.push({
          id: panel.id,
          title: panel.title,
          description: panel.description ?? "",
          kind: panel.type === "stat" ? "stat" : "timeseries",
          unit: panel.fieldConfig?.defaults?.unit,
          gridPos: panel.gridPos,
          row,
          thresholds: panel.fieldConfig?.defaults?.thresholds?.steps,
          mappings: valueMappings(panel.fieldConfig?.defaults?.mappings),
          targets: (panel.targets ?? []).map((target) => ({
            refId: target.refId,
            expr: target.expr,
            legendFormat: target.legendFormat ?? "",
            instant: target.instant === true,
          })),
        });
      };
      for (const panel of raw.panels ?? []) visit(panel);
      const variables = (raw.templating?.list ?? []).map(({ name, allValue }) => ({ name, allValue }));
      return { file: `${dashboardsDir}/${name}`, uid: raw.uid, title: raw.title, variables, panels };
    });
}

/** What Grafana knows when it fills in a query: the time range, the data source's scrape interval, the panel's width. */
export interface GrafanaRange {
  rangeSeconds: number;
  /** The data source's `timeInterval` (the scrape interval). */
  scrapeSeconds: number;
  /** Points a panel asks for; Grafana uses the panel's width in pixels. */
  maxDataPoints?: number;
}

/** `$__interval`: the range over the panel's points, never below the scrape interval. */
export function grafanaInterval(range: GrafanaRange): number {
  return Math.max(range.scrapeSeconds, Math.ceil(range.rangeSeconds / (range.maxDataPoints ?? 600)));
}

/**
 * The query Grafana sends for `expr` with every variable at its default ("All"): `$__rate_interval`
 * is max($__interval + scrape interval, 4 × scrape interval), as Grafana computes it.
 */
export function grafanaExpr(
  expr: string,
  dashboard: Pick<Dashboard, "variables">,
  range: GrafanaRange,
): string {
  const interval = grafanaInterval(range);
  const rateInterval = Math.max(interval + range.scrapeSeconds, 4 * range.scrapeSeconds);
  let filled = expr
    .replaceAll("$__rate_interval", `${rateInterval}s`)
    .replaceAll("$__interval", `${interval}s`)
    .replaceAll("$__range", `${Math.round(range.rangeSeconds)}s`);
  for (const variable of dashboard.variables) {
    const all = variable.allValue ?? ".*";
    filled = filled
      .replaceAll(`\${${variable.name}}`, all)
      .replaceAll(`[[${variable.name}]]`, all)
      .replace(new RegExp(`\\$${variable.name}\\b`, "g"), all);
  }
  return filled;
}

/** A series' legend as Grafana writes it: `{{label}}` filled in, or every label when the format is empty or `__auto`. */
export function legendOf(format: string, metric: Record<string, string>): string {
  if (format && format !== "__auto") {
    return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, label: string) => metric[label] ?? "");
  }
  const labels = Object.entries(metric).filter(([name]) => name !== "__name__");
  if (labels.length === 0) return metric.__name__ ?? "value";
  return `{${labels.map(([name, value]) => `${name}="${value}"`).join(", ")}}`;
}

function valueMappings(
  mappings: Array<{ type: string; options?: Record<string, { text: string }> }> | undefined,
): Record<string, string> | undefined {
  const values = (mappings ?? []).filter((mapping) => mapping.type === "value");
  if (values.length === 0) return undefined;
  return Object.fromEntries(
    values.flatMap((mapping) =>
      Object.entries(mapping.options ?? {}).map(([value, { text }]) => [value, text]),
    ),
  );
}
