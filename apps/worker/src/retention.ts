import type { Db } from "@wallet/ledger/db";
import { ER_TABLEACCESS_DENIED, isTransactionTooLarge, mysqlErrno } from "@wallet/ledger/mysql-errors";
import {
  type Pruned,
  type PrunedTable,
  prunedTables,
  pruneExpired,
} from "@wallet/ledger/retention/prune-expired";
import { outboxPruneRows, pruneAppliedOutbox } from "@wallet/ledger/side-effects/outbox-queries";
import { earliestStoredReport } from "@wallet/ledger/side-effects/reports-since";
import type { ReportingBound, ReportingQueue } from "@wallet/queue/reporting-queue";
import type { Logger } from "@wallet/telemetry/logger";
import type { SideEffectMetrics } from "./metrics.ts";

export interface RetentionDeps {
  db: Db;
  reporting: ReportingQueue;
  logger: Logger;
  metrics: SideEffectMetrics;
  everyMs: number;
  /** Applied outbox rows older than this are deleted. */
  outboxRetentionSeconds: number;
  /**
   * Per table, how old its expired rows are (`pruneExpired`: the audit trail by when it was written,
   * revoked tokens by their revocation, refused closes by their resolution); 0 keeps the table whole.
   */
  tableRetentionSeconds: Record<PrunedTable, number>;
  pruneChunk: number;
  /** Pause between chunks: the pruner's pace, so it never competes with the callbacks for long. */
  prunePauseMs: number;
  reportingBound: ReportingBound;
}

/**
 * Keeps what grows with traffic bounded: applied outbox rows past their retention are deleted in
 * small chunks, paced (`prunePauseMs` between chunks lets the callbacks through), then the reporting
 * queue is held to its bound, then the operator's records past their periods (`tableRetentionSeconds`)
 * are pruned the same way. Each part fails alone: a table whose DELETE the runtime user may not run
 * (grants not re-run after an upgrade) does not stop the outbox's prune. Every worker runs it; two at
 * once only share the work.
 */
export function startRetention(deps: RetentionDeps): { stop: () => Promise<void> } {
  let running = true;
  let wake: () => void = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const attempt = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      const hint =
        mysqlErrno(error) === ER_TABLEACCESS_DENIED
          ? "; the runtime user may not delete there: run the runtime part of `pnpm db:grants` again (docs/databases.md)"
          : isTransactionTooLarge(error)
            ? "; the server refused even one row of at most 8 MiB for its size: its transaction size limit is below retention's chunks, or (MySQL's 3100) its Group Replication member is leaving the group (docs/databases.md)"
            : "";
      deps.logger.error(
        { err: error, part: what },
        `retention of ${what} failed; retrying at the next pass${hint}`,
      );
    }
  };
  /** Runs `chunk` (true: it came back full, more may be due) until one comes back short, paced. */
  const pruneInChunks = async (chunk: () => Promise<boolean>) => {
    while (running) {
      if (!(await chunk())) return;
      await pause(deps.prunePauseMs);
    }
  };
  const loop = (async () => {
    while (running) {
      await attempt("the outbox", () =>
        pruneInChunks(async () => {
          const deleted = await pruneAppliedOutbox(deps.db, deps.outboxRetentionSeconds, deps.pruneChunk);
          deps.metrics.outboxPruned.inc(deleted);
          // Full at its row count, or at the 8 MiB of rows a DELETE may take (`outboxPruneRows`).
          return deleted >= outboxPruneRows(deps.pruneChunk);
        }),
      );
      await attempt("the reporting queue", () => trimReporting(deps));
      for (const table of prunedTables) {
        const olderThanSeconds = deps.tableRetentionSeconds[table];
        if (!running || olderThanSeconds <= 0) continue;
        // Each pass from the oldest row; within it, each chunk from where the last one ended (past a
        // row the server refused for its size, so that row never holds back the rows behind it).
        let after: Pruned["after"];
        await attempt(table, () =>
          pruneInChunks(async () => {
            const pruned = await pruneExpired(deps.db, table, olderThanSeconds, deps.pruneChunk, { after });
            deps.metrics.retentionPruned.inc({ table }, pruned.deleted);
            for (const row of pruned.tooLarge ?? []) logTooLarge(deps.logger, table, row);
            after = pruned.after;
            return pruned.more;
          }),
        );
      }
      if (running) await pause(deps.everyMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      wake();
      await loop;
    },
  };
}

/**
 * A row the server refuses to delete for its size even alone (its transaction limit lowered below one
 * row, binary-log row images included): left in place, stepped over, tried again at each pass.
 */
function logTooLarge(logger: Logger, table: PrunedTable, row: { id: number; bytes: number }): void {
  logger.error(
    { table, id: row.id, bytes: row.bytes },
    `retention of ${table}: row ${row.id} (about ${row.bytes} bytes) is refused for its size even deleted alone, so it is kept and stepped over at each pass; raise the server's limit above it (group_replication_transaction_size_limit, or TiDB's txn-total-size-limit) and it goes at the next pass (docs/databases.md)`,
  );
}

/** Holds the reporting queue to its bound, and says from when to republish what it dropped. */
async function trimReporting(deps: RetentionDeps): Promise<void> {
  const trimmed = await deps.reporting.trim(deps.reportingBound);
  if (trimmed.dropped === 0) return;
  deps.metrics.reportingDropped.inc(trimmed.dropped);
  // From the dropped reports' own stored rows, on the clock `republish --since` compares with: the
  // queue time of a report is later than its row's (by milliseconds, or by days for one
  // republished), so a --since read off the queue missed some.
  const earliest = await earliestStoredReport(deps.db, trimmed.rounds);
  const since = earliest?.toISOString() ?? "<when the consumer stopped>";
  deps.logger.warn(
    { dropped: trimmed.dropped, since, bound: deps.reportingBound },
    `unread reports over the reporting queue's bound were dropped from Redis (kept in MySQL); restore them with: pnpm side-effects republish --topic reporting --since ${since}`,
  );
}
