/**
 * Grafana-like panels as SVG strings, from recorded series: pure functions, no DOM, so the pictures
 * can be drawn by any browser (and tested without one).
 */
import type { SnapshotPanel, SnapshotRun } from "./snapshot-run.ts";

export interface Size {
  width: number;
  height: number;
}

/** Grafana's classic palette: neighbouring series get colours far apart. */
const palette = ["#73BF69", "#F2CC0C", "#5794F2", "#FF9830", "#F2495C", "#B877D9", "#8AB8FF", "#FFCB7D"];
const muted = "#9fa7b3";
const gridColour = "#2c3235";
const charWidth = 6.2; // an 11px DejaVu Sans character, for laying out text without measuring it
const legendMax = 8;
const timeSteps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];

const entities: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text made safe for XML (and HTML) content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => entities[c] ?? c);
}

function num(value: number, digits: number): string {
  return String(Number(value.toPrecision(digits)));
}

function scaled(value: number, base: number, prefixes: string[], digits: number): string {
  let i = 0;
  // Rounded too, so 999.9 is "1k", not "1000".
  while (
    (Math.abs(value) >= base || Math.abs(Number(value.toPrecision(digits))) >= base) &&
    i < prefixes.length - 1
  ) {
    value /= base;
    i++;
  }
  return `${num(value, digits)}${prefixes[i]}`;
}

const durations: Array<[number, string]> = [
  [86400, "d"],
  [3600, "h"],
  [60, "min"],
  [1, "s"],
  [1e-3, "ms"],
  [1e-6, "µs"],
  [1e-9, "ns"],
];

function duration(seconds: number, digits: number): string {
  if (seconds === 0) return "0 s";
  const [size, name] = durations.find(([size]) => Math.abs(seconds) >= size) ?? [1e-9, "ns"];
  return `${num(seconds / size, digits)} ${name}`;
}

const si = ["", "k", "M", "G", "T", "P"];

/** A value the way Grafana shows it for a unit id, to `digits` significant digits. */
export function formatValue(value: number, unit = "short", digits = 3): string {
  switch (unit) {
    case "percentunit":
      return `${num(value * 100, digits)}%`;
    case "percent":
      return `${num(value, digits)}%`;
    case "s":
      return duration(value, digits);
    case "ms":
      return duration(value / 1000, digits);
    case "bytes":
      return scaled(value, 1024, [" B", " KiB", " MiB", " GiB", " TiB", " PiB"], digits);
    case "reqps":
      return `${scaled(value, 1000, si, digits)} req/s`;
    case "ops":
      return `${scaled(value, 1000, si, digits)} ops/s`;
    case "none":
      return num(value, digits);
    default:
      return scaled(value, 1000, si, digits);
  }
}

/**
 * 4-6 evenly spaced round y ticks (steps of 1, 2, 2.5 or 5 × 10ⁿ, in KiB/MiB/… for bytes) covering `[min, max]`. Zero is
 * included when that at most doubles the range (rates and latencies read best from zero); a flat line
 * gets a range around it.
 */
export function niceTicks(min: number, max: number, unit?: string): number[] {
  // Bytes are counted in KiB, MiB, …: 256 MiB is a round number there, 250 MiB is not.
  const size = unit === "bytes" ? 1024 ** Math.max(0, Math.floor(Math.log2(Math.max(-min, max, 1)) / 10)) : 1;
  if (size > 1) return niceTicks(min / size, max / size).map((t) => t * size);
  if (max === min) [min, max] = min === 0 ? [0, 1] : min > 0 ? [0, 2 * min] : [2 * min, 0];
  if (min > 0 && min < max - min) min = 0;
  if (max < 0 && -max < max - min) max = 0;
  const raw = (max - min) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const first = Math.floor(min / step);
  const count = Math.min(Math.ceil(max / step) - first, 10);
  return Array.from({ length: count + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
}

/** Tick labels with just enough digits to tell them apart (99.9% and 99.95% need four). */
function tickLabels(ticks: number[], unit: string | undefined): string[] {
  for (let digits = 3; ; digits++) {
    const labels = ticks.map((t) => formatValue(t, unit, digits));
    if (new Set(labels).size === labels.length || digits >= 8) return labels;
  }
}

function clock(t: number): string {
  return new Date(t * 1000).toISOString().slice(11, 19);
}

function text(x: number, y: number, content: string, attributes = ""): string {
  return `<text x="${r(x)}" y="${r(y)}" ${attributes}>${escapeXml(content)}</text>`;
}

function r(n: number): number {
  return Math.round(n * 10) / 10;
}

function svg({ width, height }: Size, title: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"` +
    ` font-family="DejaVu Sans, Arial, sans-serif" font-size="11" fill="#ccccdc"><title>${escapeXml(title)}</title>${body}</svg>`
  );
}

function wrap(content: string, width: number, maxLines: number): string[] {
  const perLine = Math.max(10, Math.floor(width / (charWidth * 0.95)));
  const lines: string[] = [];
  for (const word of content.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length < perLine)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  if (lines.length > maxLines) return [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1]} …`];
  return lines;
}

function noData(panel: SnapshotPanel, size: Size): string {
  const reason = panel.emptyReason ? wrap(panel.emptyReason, size.width - 24, 4) : [];
  const top = size.height / 2 - reason.length * 7;
  return (
    text(size.width / 2, top, "No data", `text-anchor="middle" font-size="16" fill="${muted}"`) +
    reason
      .map((line, i) => text(size.width / 2, top + 20 + i * 14, line, `text-anchor="middle" fill="${muted}"`))
      .join("")
  );
}

/** Lays the legend out in lines under the plot: at most 8 entries, then "+N more". */
function legend(names: string[], width: number, maxLines: number): { body: string; lines: number } {
  const room = (line: number) => (line === maxLines - 1 ? width - 70 : width); // the last keeps "+N more"
  let [body, x, line, shown] = ["", 0, 0, 0];
  for (const [i, name] of names.entries()) {
    const label = name.length > 40 ? `${name.slice(0, 39)}…` : name || "value";
    const w = 32 + label.length * charWidth;
    const [nx, nl] = x > 0 && x + w > room(line) ? [0, line + 1] : [x, line];
    if (i >= legendMax || nl >= maxLines || nx + w > room(nl)) break;
    [x, line] = [nx, nl];
    body += `<rect x="${r(x)}" y="${line * 16 + 6}" width="12" height="3" fill="${palette[i % palette.length]}"/>`;
    body += text(x + 16, line * 16 + 11.5, label);
    x += w;
    shown++;
  }
  if (shown < names.length)
    body += text(x, line * 16 + 11.5, `+${names.length - shown} more`, `fill="${muted}"`);
  return { body, lines: line + 1 };
}

/** A time series panel: a line per series, y ticks in the panel's unit, UTC clock times, phase bands. */
export function timeseriesSvg(panel: SnapshotPanel, run: SnapshotRun, size: Size): string {
  const series = panel.series.filter((s) => s.points.length > 0);
  if (series.length === 0) return svg(size, panel.title, noData(panel, size));
  const { width, height } = size;
  const keyed = legend(
    series.map((s) => s.legend),
    width - 8,
    height >= 220 ? 3 : 2,
  );
  let [lo, hi] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const s of series) for (const [, v] of s.points) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  const ticks = niceTicks(lo, hi, panel.unit);
  const labels = tickLabels(ticks, panel.unit);
  const [yMin, yMax] = [ticks[0] ?? lo, ticks.at(-1) ?? hi];
  const left = 12 + Math.max(...labels.map((l) => l.length)) * 7; // tick labels are mostly digits, wider than average
  const [top, right, bottom] = [18, width - 10, height - 22 - keyed.lines * 16];
  const [start, end] = run.end > run.start ? [run.start, run.end] : [run.start - 1, run.start + 1];
  const x = (t: number) => left + ((t - start) / (end - start)) * (right - left);
  const y = (v: number) => bottom - ((v - yMin) / (yMax - yMin)) * (bottom - top);
  let body = "";
  for (const phase of run.phases) {
    const [a, b] = [x(Math.max(phase.start, start)), x(Math.min(phase.end, end))];
    if (b <= a) continue;
    // The label sits in the strip above the plot, so no line runs through it.
    body += `<rect class="phase" x="${r(a)}" y="${top - 14}" width="${r(b - a)}" height="${r(bottom - top + 14)}" fill="#F2495C" fill-opacity="0.13"/>`;
    body += text(
      Math.min(a + 3, right - phase.name.length * 6),
      top - 4,
      phase.name,
      `font-size="10" fill="#FF7383"`,
    );
  }
  ticks.forEach((t, i) => {
    body += `<line x1="${r(left)}" x2="${r(right)}" y1="${r(y(t))}" y2="${r(y(t))}" stroke="${gridColour}"/>`;
    body += text(left - 6, y(t) + 4, labels[i] ?? "", `text-anchor="end" fill="${muted}"`);
  });
  const step = timeSteps.find((s) => (end - start) / s <= (right - left) / 90) ?? 86400;
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) {
    body += `<line x1="${r(x(t))}" x2="${r(x(t))}" y1="${top}" y2="${r(bottom)}" stroke="${gridColour}"/>`;
    body += text(x(t), bottom + 14, clock(t), `text-anchor="middle" fill="${muted}"`);
  }
  const gap = run.stepSeconds > 0 ? run.stepSeconds * 1.5 : Number.POSITIVE_INFINITY;
  series.forEach((s, i) => {
    // A gap longer than a step (a missing scrape, a dead target) breaks the line.
    const runs: string[][] = [];
    let previous = Number.NEGATIVE_INFINITY;
    for (const [t, v] of s.points) {
      if (t - previous > gap || runs.length === 0) runs.push([]);
      runs.at(-1)?.push(`${r(x(t))},${r(y(v))}`);
      previous = t;
    }
    const colour = palette[i % palette.length];
    const d = runs.map((run) => `M${run.join("L")}`).join("");
    body += `<path class="series" d="${d}" fill="none" stroke="${colour}" stroke-width="1.5" stroke-linejoin="round"/>`;
    for (const [point] of runs.filter((run) => run.length === 1)) {
      const [cx, cy] = (point ?? "").split(",");
      body += `<circle cx="${cx}" cy="${cy}" r="2.5" fill="${colour}"/>`;
    }
  });
  body += `<g transform="translate(4,${r(bottom + 22)})">${keyed.body}</g>`;
  return svg(size, panel.title, body);
}

/** A stat panel: the last value of the first series, big, in the panel's unit. */
/** Grafana's named colours as its dark theme draws them. */
const grafanaColours: Record<string, string> = {
  green: "#73BF69",
  red: "#F2495C",
  orange: "#FF9830",
  yellow: "#FADE2A",
  blue: "#5794F2",
};

/** The colour of the last threshold step `value` reaches, as a Grafana stat colours its value. */
export function thresholdColour(panel: Pick<SnapshotPanel, "thresholds">, value: number): string {
  let colour = "green";
  for (const step of panel.thresholds ?? []) {
    if (step.value === null || value >= step.value) colour = step.color;
  }
  return grafanaColours[colour] ?? colour;
}

export function statSvg(panel: SnapshotPanel, size: Size): string {
  const last = panel.series[0]?.points.at(-1);
  if (!last) return svg(size, panel.title, noData(panel, size));
  const value = panel.mappings?.[String(last[1])] ?? formatValue(last[1], panel.unit);
  const fontSize = Math.min(size.height * 0.45, (size.width - 16) / (value.length * 0.62));
  return svg(
    size,
    panel.title,
    text(
      size.width / 2,
      size.height / 2 + fontSize * 0.35,
      value,
      `text-anchor="middle" font-size="${r(fontSize)}" font-weight="bold" fill="${thresholdColour(panel, last[1])}"`,
    ),
  );
}
