/**
 * Recorded Prometheus answers for every panel of every dashboard over one run (a healthy stretch and
 * the faults injected into it), so the dashboards can be drawn without Grafana. Times are unix seconds.
 */
import { readFileSync } from "node:fs";
import type { DashboardPanel } from "../grafana-panels.ts";

/** One line of a panel: its legend and its `[unix seconds, value]` points (NaN/Inf values left out). */
export interface SnapshotSeries {
  legend: string;
  points: Array<[number, number]>;
}

/** A panel as recorded: the committed panel (title, unit, grid place, row) and the series its queries returned. */
export interface SnapshotPanel extends Omit<DashboardPanel, "targets"> {
  /** Set when the panel is documented as empty in a healthy system, and why. */
  emptyReason?: string;
  series: SnapshotSeries[];
}

/** A dashboard's panels (its rows only survive as `panel.row`). */
export interface SnapshotDashboard {
  uid: string;
  title: string;
  panels: SnapshotPanel[];
}

/** A whole recording: the time range, the fault windows in it, and every dashboard. */
export interface SnapshotRun {
  start: number;
  end: number;
  stepSeconds: number;
  /** Fault windows, e.g. "worker killed", drawn as shaded bands on every time series. */
  phases: Array<{ name: string; start: number; end: number }>;
  dashboards: SnapshotDashboard[];
}

/** Reads a run file as written by the observability test (trusted, so not validated). */
export function readSnapshotRun(path: string): SnapshotRun {
  return JSON.parse(readFileSync(path, "utf8")) as SnapshotRun;
}
