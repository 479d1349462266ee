/**
 * One dashboard of a recorded run as a standalone HTML page laid out like Grafana (24-column grid,
 * 30px grid rows, dark theme), for a headless browser to screenshot. No scripts, no external resources.
 */
import type { SnapshotDashboard, SnapshotRun } from "./snapshot-run.ts";
import { escapeXml, statSvg, timeseriesSvg } from "./svg-chart.ts";

/** The page width in CSS pixels; the screenshot's window must be this wide. */
export const pageWidth = 1600;
const padding = 16;
const rowHeight = 30;
const headerHeight = 64;
const titleBar = 26;
const columnWidth = (pageWidth - 2 * padding) / 24;

const style = `
body { margin: 0; width: ${pageWidth}px; background: #111217; color: #ccccdc; font-family: "DejaVu Sans", Arial, sans-serif; }
header { height: ${headerHeight}px; box-sizing: border-box; padding: 12px ${padding + 4}px 0; }
h1 { margin: 0; font-size: 20px; font-weight: 600; }
header p { margin: 6px 0 0; font-size: 12px; color: #9fa7b3; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
main { display: grid; grid-template-columns: repeat(24, 1fr); grid-auto-rows: ${rowHeight}px; padding: 0 ${padding}px ${padding}px; }
h2 { margin: 0 4px; font-size: 15px; align-self: end; padding-bottom: 4px; border-bottom: 1px solid #2c3235; }
section { margin: 4px; min-width: 0; overflow: hidden; background: #181b1f; border: 1px solid #2c3235; border-radius: 2px; }
h3 { margin: 0; padding: 0 8px; height: ${titleBar}px; line-height: ${titleBar}px; font-size: 13px; font-weight: 500;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
svg { display: block; }`;

function clock(t: number): string {
  return new Date(t * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * The page and its height in pixels. A row's heading goes on the grid line above its first panel, as
 * Grafana lays rows out; when that line is taken, the panels from there down move one line lower.
 */
export function dashboardHtml(
  dashboard: SnapshotDashboard,
  run: SnapshotRun,
): { html: string; height: number } {
  const panels = [...dashboard.panels].sort((a, b) => a.gridPos.y - b.gridPos.y || a.gridPos.x - b.gridPos.x);
  const cells: string[] = [];
  const taken: Array<{ y: number; h: number }> = [];
  let [shift, row, lines] = [0, undefined as string | undefined, 0];
  for (const panel of panels) {
    const { x, w, h } = panel.gridPos;
    if (panel.row !== undefined && panel.row !== row) {
      row = panel.row;
      const line = panel.gridPos.y + shift - 1;
      if (line < 0 || taken.some((t) => t.y <= line && line < t.y + t.h)) shift++;
      const y = panel.gridPos.y + shift - 1;
      cells.push(`<h2 style="grid-column: 1 / -1; grid-row: ${y + 1}">${escapeXml(row)}</h2>`);
    }
    const y = panel.gridPos.y + shift;
    taken.push({ y, h });
    lines = Math.max(lines, y + h);
    const size = { width: Math.floor(w * columnWidth - 10), height: h * rowHeight - 10 - titleBar };
    const chart = panel.kind === "stat" ? statSvg(panel, size) : timeseriesSvg(panel, run, size);
    const title = escapeXml(panel.title);
    cells.push(
      `<section style="grid-column: ${x + 1} / span ${w}; grid-row: ${y + 1} / span ${h}" title="${escapeXml(panel.description)}">` +
        `<h3 title="${title}">${title}</h3>${chart}</section>`,
    );
  }
  const phases = run.phases.map((p) => ` · ${p.name} ${clock(p.start).slice(11)}–${clock(p.end).slice(11)}`);
  const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escapeXml(dashboard.title)}</title><style>${style}</style></head>
<body><header><h1>${escapeXml(dashboard.title)}</h1>
<p>${clock(run.start)} → ${clock(run.end)} UTC${run.stepSeconds > 0 ? ` · step ${run.stepSeconds} s` : ""}${escapeXml(phases.join(""))}</p></header>
<main>${cells.join("\n")}</main></body></html>
`;
  return { html, height: headerHeight + lines * rowHeight + padding };
}
