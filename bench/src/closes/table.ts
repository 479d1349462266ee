import type { CellResult } from "./cell.ts";

const MiB = 1024 * 1024;

/** How the close was stored: at its first answer, only by the second send, or not by then. */
export function storedWhen(cell: CellResult): string {
  const { storedAtFirstAnswer, storedBeforeSecondSend } = cell.delivery;
  if (storedAtFirstAnswer) return "yes";
  if (storedBeforeSecondSend) return "no, yes by 2nd";
  return cell.storedAtEnd ? "no" : "never";
}

const answered = (cell: CellResult) => {
  const statuses = cell.delivery.sends.map((send) => send.status).join(",");
  return `${cell.delivery.answeredBy ?? "none"} (${statuses})`;
};

const memory = (cell: CellResult, name: string) => String(cell.memory[name]?.growthMiB ?? "-");
const sum = (counters: Record<string, number>) => Object.values(counters).reduce((a, b) => a + b, 0);

const columns: Array<[string, (cell: CellResult) => string]> = [
  ["close × condition", (cell) => `${cell.close} × ${cell.condition}`],
  ["MiB", (cell) => (cell.bytes / MiB).toFixed(1)],
  ["answered by send (statuses)", answered],
  ["stored after 1st", storedWhen],
  ["1st send ms", (cell) => String(Math.round(cell.delivery.sends[0]?.ms ?? 0))],
  [
    "others 5xx (absorbed) / sends",
    (cell) => `${cell.others.window.errors} (${cell.others.window.absorbed}) / ${cell.others.window.sends}`,
  ],
  ["others p99 ms (cell)", (cell) => `${cell.others.window.p99Ms} (${cell.others.wholeCell.p99Ms})`],
  ["worker RSS +MiB", (cell) => memory(cell, "worker")],
  ["gateway RSS +MiB", (cell) => memory(cell, "gateway")],
  ["Redis +MiB", (cell) => memory(cell, "redis")],
  ["stalled", (cell) => String(sum(cell.stalled))],
  ["lost locks", (cell) => String(cell.lostLocks.length)],
  ["effects s", (cell) => (cell.effectsAppliedMs === null ? "-" : (cell.effectsAppliedMs / 1000).toFixed(1))],
];

/**
 * One version's cells as a table: "others" are the other players' sends answered between the close's
 * first send and its last answer (p99 in brackets: over the whole cell, warm-up included); memory is
 * the peak after the first send minus the value just before it.
 */
export function formatCells(version: string, cells: CellResult[]): string {
  const rows = [
    columns.map(([title]) => title),
    ...cells.map((cell) => columns.map(([, value]) => value(cell))),
  ];
  const widths = columns.map((_, index) => Math.max(...rows.map((row) => (row[index] ?? "").length)));
  const line = (row: string[]) =>
    `| ${row.map((text, index) => text.padEnd(widths[index] ?? 0)).join(" | ")} |`;
  return [
    `${version}:`,
    line(rows[0] ?? []),
    `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`,
    ...rows.slice(1).map(line),
  ].join("\n");
}

/** One line per cell as it finishes, so a long run shows its progress. */
export function formatCellLine(cell: CellResult): string {
  const { window } = cell.others;
  return (
    `  ${cell.version.padEnd(7)} ${`${cell.close} × ${cell.condition}`.padEnd(34)} ` +
    `answered by send ${answered(cell)}, stored after 1st: ${storedWhen(cell)}, 1st send ${Math.round(cell.delivery.sends[0]?.ms ?? 0)} ms; ` +
    `others ${window.errors} 5xx (${window.absorbed} absorbed) of ${window.sends}, p99 ${window.p99Ms} ms; ` +
    `worker +${memory(cell, "worker")} MiB, gateway +${memory(cell, "gateway")} MiB, Redis +${memory(cell, "redis")} MiB; ` +
    `stalled ${JSON.stringify(cell.stalled)}, lost locks ${JSON.stringify(cell.lostLocks)}, failed ${JSON.stringify(cell.failed)}, worker problems ${cell.workerProblems}${Object.keys(cell.intake).length ? `, intake ${JSON.stringify(cell.intake)}` : ""}`
  );
}
