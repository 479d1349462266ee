import { type SQL, sql } from "drizzle-orm";
import { deleteClosePieces } from "../close-pieces/pieces.ts";
import type { Db } from "../db.ts";
import { isTransactionTooLarge } from "../mysql-errors.ts";
import {
  type ExpiredRow,
  type ExpiredRows,
  expiredChunk,
  type PrunePosition,
  pruneBudgetBytes,
} from "./expired-chunk.ts";
import { onRefusedForSize } from "./size-refusal.ts";

/**
 * The tables the worker's retention prunes besides the outbox (`pruneAppliedOutbox`), each after a
 * period of its own. What is never pruned here: the journal, bets, rounds, closes, reports and
 * receipts (the money's audit trail), an unresolved refused close (the only trace of that round's
 * close, and a ticket still open), a token that is not revoked.
 */
export const prunedTables = ["refused_closes", "operator_actions", "operator_api_tokens"] as const;
export type PrunedTable = (typeof prunedTables)[number];

/**
 * Per table: which rows have expired once older than the cutoff, on which time column (each the
 * leading column of an index, so a chunk reads the rows it deletes and no others; none for the
 * tokens, a handful of rows per operator), and what a row weighs beyond its small columns.
 */
const expiry: Record<PrunedTable, ExpiredRows> = {
  // Resolved refusals only (`resolved_at` is NULL until a manual close resolves them; a NULL is never
  // below the cutoff). A body is in its row (up to 1 MiB since issue 39; up to 16 MiB in rows written
  // before), or in `close_pieces` of at most 128 KiB each, deleted with the row.
  refused_closes: {
    table: "refused_closes",
    column: "resolved_at",
    largeBytes: sql.raw("LENGTH(body) + LENGTH(message)"),
    pieces: true,
  },
  // An audit line's detail holds what was sent: a manual close's arrays, up to its body limit.
  operator_actions: {
    table: "operator_actions",
    column: "created_at",
    largeBytes: sql.raw("LENGTH(detail)"),
    pieces: false,
  },
  // Revoked tokens only: a live token has no `revoked_at`, so it is never below the cutoff.
  operator_api_tokens: {
    table: "operator_api_tokens",
    column: "revoked_at",
    largeBytes: sql.raw("0"),
    pieces: false,
  },
};

export interface Pruned {
  deleted: number;
  /** A chunk came back full (at its row count or its bytes): more may be due. */
  more: boolean;
  /** Where the next chunk of this pass starts (with `more`). */
  after?: PrunePosition;
  /** Rows a server refused for their size even deleted alone: left in place, stepped over. */
  tooLarge?: Array<{ id: number; bytes: number }>;
}

/**
 * Deletes one chunk of expired rows of `table` (those whose time column is more than
 * `olderThanSeconds` in the past), oldest first, in one short statement of its own: no lock is held
 * for long, and the caller loops while `more` says so, passing `after` along. A chunk holds at most
 * `chunk` rows and `budgetBytes` of them (`pruneBudgetBytes`, at least one row): however large the
 * rows, no DELETE nears a server's transaction limit. Should a server still refuse a chunk for its
 * size (its limit lowered below the budget), the chunk's rows are deleted one at a time. A row refused
 * alone that is larger than the budget is stepped over: kept, named in `tooLarge`, and `after` moves
 * past it, so it never stops the rows behind it (each pass tries it once again). A row within the
 * budget refused alone is the server's to fix: that error is thrown (`size-refusal.ts`).
 */
export async function pruneExpired(
  db: Db,
  table: PrunedTable,
  olderThanSeconds: number,
  chunk = 500,
  options: { after?: PrunePosition; budgetBytes?: number } = {},
): Promise<Pruned> {
  const rows = expiry[table];
  const budgetBytes = options.budgetBytes ?? pruneBudgetBytes;
  const cutoff = sql`CURRENT_TIMESTAMP(3) - INTERVAL ${Math.round(olderThanSeconds)} SECOND`;
  const found = await expiredChunk(db, rows, cutoff, {
    after: options.after,
    maxRows: Math.max(1, chunk),
    budgetBytes,
  });
  const last = found.chunk.at(-1);
  const after = found.more && last ? { at: last.at, id: last.id } : undefined;
  if (found.chunk.length === 0) return { deleted: 0, more: false };
  try {
    return { deleted: await deleteRows(db, rows, cutoff, found.chunk), more: found.more, after };
  } catch (error) {
    if (!isTransactionTooLarge(error)) throw error;
    const next = onRefusedForSize(found.chunk, budgetBytes);
    const [only] = found.chunk;
    if (next === "step_over" && only)
      return {
        deleted: 0,
        more: true,
        after: { at: only.at, id: only.id },
        tooLarge: [{ id: only.id, bytes: only.bytes }],
      };
    if (next === "throw") throw error;
    let deleted = 0;
    for (const row of found.chunk) deleted += await deleteRows(db, rows, cutoff, [row]);
    return { deleted, more: found.more, after };
  }
}

/**
 * The rows' pieces, then the rows, by id (a crash between the two leaves a row whose pieces are gone,
 * deleted again at the next pass). Each piece statement is its own transaction of at most 2 MiB.
 */
async function deleteRows(db: Db, rows: ExpiredRows, cutoff: SQL, chunk: ExpiredRow[]) {
  for (const row of chunk) if (row.pieces) await deleteClosePieces(db, row.pieces);
  const [result] = await db.execute(sql`
    DELETE FROM ${sql.raw(rows.table)}
    WHERE id IN (${sql.join(
      chunk.map((row) => sql`${row.id}`),
      sql`, `,
    )}) AND ${sql.raw(rows.column)} < ${cutoff}`);
  return (result as unknown as { affectedRows: number }).affectedRows;
}
