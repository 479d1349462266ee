/**
 * A compact way to write Grafana dashboards: a dashboard is rows of panels, a panel is a title, a
 * description and its queries. Layout, ids, datasources and the styling every panel shares are filled
 * in here, so the dashboard files only say what is plotted and why.
 */

export interface Query {
  expr: string;
  /** Grafana legend template, e.g. `{{endpoint}} {{action}}`. */
  legend?: string;
}

export interface PanelSpec {
  title: string;
  /** What the panel shows and what a bad value means (shown in the panel's ⓘ). */
  description: string;
  queries: Query[];
  /** Grafana unit id: `reqps`, `ops`, `s`, `percentunit`, `bytes`, `short`, … */
  unit?: string;
  /** `timeseries` (default) or `stat` (one big number: its last value). */
  kind?: "timeseries" | "stat";
  /** Width out of 24; 8 by default, three panels a line. */
  width?: number;
  height?: number;
  stack?: boolean;
  min?: number;
  max?: number;
  /**
   * Colour steps: the base colour, then `[value, colour]` from which on it applies. Timeseries panels
   * draw them as dashed lines (alert thresholds); stat panels colour their background.
   */
  thresholds?: { base: string; steps: [number, string][] };
  /** Stat panels: value → text (`{ 0: "DOWN", 1: "UP" }`). */
  mappings?: Record<number, string>;
}

export interface RowSpec {
  title: string;
  panels: PanelSpec[];
}

export interface VariableSpec {
  name: string;
  label: string;
  /** A Grafana Prometheus variable query, e.g. `label_values(metric, label)`. */
  query: string;
}

export interface DashboardSpec {
  uid: string;
  title: string;
  description: string;
  variables?: VariableSpec[];
  rows: RowSpec[];
}

export const prometheus = { type: "prometheus", uid: "prometheus" } as const;
const gridWidth = 24;
const defaultWidth = 8;
const defaultHeight = 8;

/** The Grafana dashboard JSON (schema 39, Grafana 10/11) for a spec. */
export function buildDashboard(spec: DashboardSpec): Record<string, unknown> {
  const panels: Record<string, unknown>[] = [];
  let id = 1;
  let y = 0;
  for (const row of spec.rows) {
    panels.push({
      id: id++,
      type: "row",
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: gridWidth, x: 0, y },
      panels: [],
    });
    y += 1;
    let x = 0;
    let lineHeight = 0;
    for (const panel of row.panels) {
      const w = panel.width ?? defaultWidth;
      const h = panel.height ?? defaultHeight;
      if (x + w > gridWidth) {
        y += lineHeight;
        x = 0;
        lineHeight = 0;
      }
      panels.push(buildPanel(panel, id++, { h, w, x, y }));
      x += w;
      lineHeight = Math.max(lineHeight, h);
    }
    y += lineHeight;
  }
  return {
    uid: spec.uid,
    title: spec.title,
    description: spec.description,
    tags: ["wallet"],
    timezone: "browser",
    editable: false,
    graphTooltip: 1,
    refresh: "30s",
    schemaVersion: 39,
    version: 1,
    time: { from: "now-3h", to: "now" },
    links: [
      {
        title: "Wallet dashboards",
        type: "dashboards",
        tags: ["wallet"],
        asDropdown: true,
        keepTime: true,
        includeVars: false,
      },
    ],
    annotations: { list: [] },
    templating: { list: (spec.variables ?? []).map(buildVariable) },
    panels,
  };
}

function buildPanel(panel: PanelSpec, id: number, gridPos: Record<string, number>): Record<string, unknown> {
  const kind = panel.kind ?? "timeseries";
  const defaults: Record<string, unknown> = { unit: panel.unit ?? "short" };
  if (panel.min !== undefined) defaults.min = panel.min;
  if (panel.max !== undefined) defaults.max = panel.max;
  if (panel.thresholds) {
    defaults.thresholds = {
      mode: "absolute",
      steps: [
        { color: panel.thresholds.base, value: null },
        ...panel.thresholds.steps.map(([value, color]) => ({ color, value })),
      ],
    };
  }
  if (panel.mappings) {
    const options = Object.fromEntries(
      Object.entries(panel.mappings).map(([value, text], index) => [value, { text, index }]),
    );
    defaults.mappings = [{ type: "value", options }];
  }
  if (kind === "timeseries") {
    defaults.custom = {
      drawStyle: "line",
      lineWidth: 1,
      fillOpacity: panel.stack ? 30 : 10,
      showPoints: "never",
      spanNulls: false,
      stacking: { mode: panel.stack ? "normal" : "none", group: "A" },
      thresholdsStyle: { mode: panel.thresholds ? "dashed" : "off" },
    };
  }
  const options =
    kind === "stat"
      ? {
          reduceOptions: { calcs: ["lastNotNull"], fields: "", values: false },
          colorMode: "background",
          graphMode: "none",
          justifyMode: "auto",
          orientation: "auto",
          textMode: "auto",
        }
      : {
          legend: { displayMode: "table", placement: "bottom", showLegend: true, calcs: ["mean", "max"] },
          tooltip: { mode: "multi", sort: "desc" },
        };
  return {
    id,
    type: kind,
    title: panel.title,
    description: panel.description,
    datasource: prometheus,
    gridPos,
    fieldConfig: { defaults, overrides: [] },
    options,
    targets: panel.queries.map((query, index) => ({
      refId: String.fromCharCode(65 + index),
      datasource: prometheus,
      expr: query.expr,
      legendFormat: query.legend ?? "__auto",
      range: kind === "timeseries",
      instant: kind === "stat",
    })),
  };
}

function buildVariable(variable: VariableSpec): Record<string, unknown> {
  return {
    name: variable.name,
    label: variable.label,
    type: "query",
    datasource: prometheus,
    query: { query: variable.query, refId: "PrometheusVariableQueryEditor-VariableQuery" },
    definition: variable.query,
    refresh: 2,
    includeAll: true,
    allValue: ".*",
    multi: true,
    sort: 1,
    current: { selected: true, text: ["All"], value: ["$__all"] },
  };
}

/** `histogram_quantile` at p50, p95 and p99 of a histogram, grouped by `by`. */
export function quantiles(
  histogram: string,
  by: string[],
  options: {
    selector?: string;
    levels?: number[];
    /**
     * The rate window. `$__rate_interval` by default; a fixed `5m` for rare requests (launches, operator
     * calls), whose quantile would otherwise be 0/0 (no line) at every point without a request in it.
     */
    window?: string;
  } = {},
): Query[] {
  const grouping = ["le", ...by].join(", ");
  const legendLabels = by.map((label) => `{{${label}}}`).join(" ");
  const window = options.window ?? "$__rate_interval";
  return (options.levels ?? [0.5, 0.95, 0.99]).map((level) => ({
    expr: `histogram_quantile(${level}, sum by (${grouping}) (rate(${histogram}_bucket${options.selector ?? ""}[${window}])))`,
    legend: `p${Math.round(level * 100)}${legendLabels ? ` ${legendLabels}` : ""}`,
  }));
}

/** Per-second rate of a counter (or a histogram's `_count`), summed by the given labels. */
export function rateBy(metric: string, by: string[], selector = ""): Query {
  const grouping = by.length > 0 ? ` by (${by.join(", ")})` : "";
  return {
    expr: `sum${grouping} (rate(${metric}${selector}[$__rate_interval]))`,
    legend: by.length > 0 ? by.map((label) => `{{${label}}}`).join(" ") : undefined,
  };
}

/** How many events of a rare counter (stalls, mismatches) happened in each 5 minutes, by labels. */
export function per5mBy(metric: string, by: string[], selector = ""): Query {
  const grouping = by.length > 0 ? ` by (${by.join(", ")})` : "";
  return {
    expr: `sum${grouping} (increase(${metric}${selector}[5m]))`,
    legend: by.length > 0 ? by.map((label) => `{{${label}}}`).join(" ") : undefined,
  };
}
