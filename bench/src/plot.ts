import type { RunResult } from "./report.ts";
import { type Side, sides } from "./sides.ts";

const colors: Record<Side, string> = { queued: "#1f77b4", reference: "#d62728", floor: "#7f7f7f" };

/**
 * Latency against throughput, one point per run: p50 (filled) and p99 (hollow) for each side,
 * labelled with the run's concurrency. A plain SVG, so it renders anywhere without a plotting library.
 */
export function latencyThroughputSvg(runs: RunResult[], title: string): string {
  const width = 760;
  const height = 460;
  const margin = { left: 70, right: 160, top: 40, bottom: 50 };
  const maxX = Math.max(...runs.map((run) => run.summary.throughput)) * 1.1 || 1;
  const maxY = Math.max(...runs.map((run) => run.summary.latencyMs.p99)) * 1.15 || 1;
  const x = (value: number) => margin.left + (value / maxX) * (width - margin.left - margin.right);
  const y = (value: number) =>
    height - margin.bottom - (value / maxY) * (height - margin.top - margin.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(title)}</text>`,
    `<line x1="${margin.left}" y1="${y(0)}" x2="${width - margin.right}" y2="${y(0)}" stroke="black"/>`,
    `<line x1="${margin.left}" y1="${y(0)}" x2="${margin.left}" y2="${margin.top}" stroke="black"/>`,
    `<text x="${(margin.left + width - margin.right) / 2}" y="${height - 12}" text-anchor="middle">throughput (callbacks/s)</text>`,
    `<text transform="translate(18 ${height / 2}) rotate(-90)" text-anchor="middle">latency (ms)</text>`,
  ];
  for (let tick = 0; tick <= 5; tick++) {
    const xv = (maxX * tick) / 5;
    const yv = (maxY * tick) / 5;
    parts.push(`<text x="${x(xv)}" y="${y(0) + 16}" text-anchor="middle">${Math.round(xv)}</text>`);
    parts.push(`<text x="${margin.left - 6}" y="${y(yv) + 4}" text-anchor="end">${yv.toFixed(1)}</text>`);
    parts.push(
      `<line x1="${margin.left}" y1="${y(yv)}" x2="${width - margin.right}" y2="${y(yv)}" stroke="#eee"/>`,
    );
  }
  for (const run of runs) {
    const color = colors[run.side];
    const px = x(run.summary.throughput);
    parts.push(`<circle cx="${px}" cy="${y(run.summary.latencyMs.p50)}" r="5" fill="${color}"/>`);
    parts.push(
      `<circle cx="${px}" cy="${y(run.summary.latencyMs.p99)}" r="5" fill="none" stroke="${color}" stroke-width="2"/>`,
    );
    parts.push(
      `<text x="${px + 7}" y="${y(run.summary.latencyMs.p99) - 6}" fill="${color}">c${run.concurrency}</text>`,
    );
  }
  const legend = sides.flatMap((side) => [
    [`${side} p50`, colors[side], true] as const,
    [`${side} p99`, colors[side], false] as const,
  ]);
  legend.forEach(([label, color, filled], index) => {
    const ly = margin.top + 10 + index * 20;
    const lx = width - margin.right + 20;
    parts.push(
      filled
        ? `<circle cx="${lx}" cy="${ly}" r="5" fill="${color}"/>`
        : `<circle cx="${lx}" cy="${ly}" r="5" fill="none" stroke="${color}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${lx + 10}" y="${ly + 4}">${label}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
