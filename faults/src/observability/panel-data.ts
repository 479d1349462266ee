import {
  type Dashboard,
  type DashboardPanel,
  grafanaExpr,
  grafanaInterval,
  legendOf,
} from "@wallet/infra/grafana-panels";
import type { SnapshotRun, SnapshotSeries } from "@wallet/infra/snapshots/snapshot-run";
import type { PrometheusServer } from "../servers/prometheus-server.ts";

export interface PanelWindow {
  start: number;
  end: number;
  scrapeSeconds: number;
}

/**
 * What Grafana would draw for `panel` over the window: each target's query with its variables filled
 * in as Grafana fills them, a range query for a time series, one instant value for a stat.
 */
export async function panelSeries(
  prometheus: PrometheusServer,
  dashboard: Dashboard,
  panel: DashboardPanel,
  window: PanelWindow,
): Promise<SnapshotSeries[]> {
  const range = { rangeSeconds: window.end - window.start, scrapeSeconds: window.scrapeSeconds };
  const step = grafanaInterval(range);
  const series: SnapshotSeries[] = [];
  for (const target of panel.targets) {
    const expr = grafanaExpr(target.expr, dashboard, range);
    const result = target.instant
      ? await prometheus.query(expr, window.end)
      : await prometheus.queryRange(expr, window.start, window.end, step);
    for (const { metric, points } of result) {
      if (points.length > 0) series.push({ legend: legendOf(target.legendFormat, metric), points });
    }
  }
  return series;
}

/** Every query of the panel as sent to Prometheus, for failure messages. */
export function panelQueries(dashboard: Dashboard, panel: DashboardPanel, window: PanelWindow): string[] {
  const range = { rangeSeconds: window.end - window.start, scrapeSeconds: window.scrapeSeconds };
  return panel.targets.map((target) => grafanaExpr(target.expr, dashboard, range));
}

/** Every panel of `dashboards` over the window, as `pnpm dashboards:snapshot` draws them. */
export async function recordRun(
  prometheus: PrometheusServer,
  dashboards: Dashboard[],
  window: PanelWindow,
  phases: SnapshotRun["phases"],
  emptyReasons: Record<string, string>,
): Promise<SnapshotRun> {
  const stepSeconds = grafanaInterval({
    rangeSeconds: window.end - window.start,
    scrapeSeconds: window.scrapeSeconds,
  });
  const run: SnapshotRun = { start: window.start, end: window.end, stepSeconds, phases, dashboards: [] };
  for (const dashboard of dashboards) {
    const panels = [];
    for (const panel of dashboard.panels) {
      const series = await panelSeries(prometheus, dashboard, panel, window);
      const { targets: _queries, ...shown } = panel;
      panels.push({ ...shown, emptyReason: emptyReasons[panel.title], series });
    }
    run.dashboards.push({ uid: dashboard.uid, title: dashboard.title, panels });
  }
  return run;
}
