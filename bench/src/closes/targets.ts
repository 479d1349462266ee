import type { CellResult } from "./cell.ts";
import { jobsLosingLockTwice } from "./lost-locks.ts";

export interface CloseTarget {
  name: string;
  met: boolean;
  /** The cells that missed it, or what was counted. */
  detail: string;
}

const cellName = (cell: CellResult) => `${cell.close} × ${cell.condition}`;
const stalled = (cell: CellResult) => Object.values(cell.stalled).reduce((a, b) => a + b, 0);
const EIGHT_MIB = 8 * 1024 * 1024;

/** Stored by its first or second send: by the first answer or before the resend, or answered by send 2 and stored. */
export function storedBySecondSend(cell: CellResult): boolean {
  const { delivery } = cell;
  if (delivery.storedAtFirstAnswer || delivery.storedBeforeSecondSend) return true;
  return delivery.answeredBy !== null && delivery.answeredBy <= 2 && cell.storedAtEnd;
}

function target(name: string, cells: CellResult[], missed: (cell: CellResult) => string | undefined) {
  const misses = cells.flatMap((cell) => {
    const why = missed(cell);
    return why === undefined ? [] : [`${cellName(cell)}: ${why}`];
  });
  return {
    name,
    met: misses.length === 0,
    detail: misses.length ? misses.join("; ") : `all ${cells.length} cells`,
  };
}

/**
 * No job taken back more than once: at most one stalled job per close (the counter cannot tell one
 * job twice from two once), and no job whose lock was lost twice over the run (the log names the job).
 */
function takenBackTarget(cells: CellResult[]): CloseTarget {
  const twice = jobsLosingLockTwice(cells.flatMap((cell) => cell.lostLocks));
  const name = "no job taken back more than once (stalled ≤ 1 per close; no job losing its lock twice)";
  const misses = [
    ...cells
      .filter((cell) => stalled(cell) > 1)
      .map((cell) => `${cellName(cell)}: ${JSON.stringify(cell.stalled)} stalled`),
    ...Object.entries(twice).map(([job, times]) => {
      const where = cells.filter((cell) => cell.lostLocks.includes(job)).map(cellName);
      return `job ${job} lost its lock ${times} times (${where.join(", ")})`;
    }),
  ];
  const lost = cells.reduce((sum, cell) => sum + cell.lostLocks.length, 0);
  return {
    name,
    met: misses.length === 0,
    detail: misses.length ? misses.join("; ") : `all ${cells.length} cells; ${lost} lost locks, none twice`,
  };
}

/** Issue 39's targets over one version's cells: reported as met / NOT met, never failing the run. */
export function evaluateCloseTargets(cells: CellResult[]): CloseTarget[] {
  const calm = cells.filter((cell) => cell.condition !== "contention");
  const contended = cells.filter((cell) => cell.condition === "contention");
  const large = cells.filter((cell) => cell.bytes >= EIGHT_MIB);
  const limit = (cell: CellResult) => (3 * cell.bytes) / (1024 * 1024);
  return [
    target("every close stored by its first or second send", cells, (cell) =>
      storedBySecondSend(cell)
        ? undefined
        : `statuses ${cell.delivery.sends.map((send) => send.status).join(",")}, stored at end: ${cell.storedAtEnd}`,
    ),
    target("no other player's callback answered 5xx (idle, load)", calm, (cell) =>
      cell.others.window.errors > 0 ? `${cell.others.window.errors} 5xx or timeouts` : undefined,
    ),
    target(
      "contention: every other player's 5xx followed by a 200 on a resend (within the contract's sends)",
      contended,
      (cell) => {
        const { errors, absorbed } = cell.others.window;
        return errors > absorbed ? `${errors - absorbed} of ${errors} not absorbed` : undefined;
      },
    ),
    takenBackTarget(cells),
    target("8 MiB closes: worker peak RSS growth within 3× the close's size", large, (cell) => {
      const growth = cell.memory.worker?.growthMiB ?? Number.NaN;
      return growth <= limit(cell) ? undefined : `+${growth} MiB, over ${limit(cell)} MiB`;
    }),
    target("8 MiB closes: Redis peak memory growth within 3× the close's size", large, (cell) => {
      const growth = cell.memory.redis?.growthMiB ?? Number.NaN;
      return growth <= limit(cell) ? undefined : `+${growth} MiB, over ${limit(cell)} MiB`;
    }),
  ];
}
