import { type SQL, sql } from "drizzle-orm";
import { deleteClosePieces } from "../close-pieces/pieces.ts";
import type { Db } from "../db.ts";

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
 * tokens, a handful of rows per operator), and the most rows one statement may take.
 */
const expiry: Record<PrunedTable, { column: SQL; maxChunk: number }> = {
  // Resolved refusals only (`resolved_at` is NULL until a manual close resolves them; a NULL is never
  // below the cutoff). A row holds at most 192 KiB of body (a larger body is in `close_pieces`,
  // deleted first): a few dozen a statement keep one DELETE (and its binary-log event, which carries
  // the whole row) far from a server's transaction limits.
  refused_closes: { column: sql.raw("resolved_at"), maxChunk: 20 },
  operator_actions: { column: sql.raw("created_at"), maxChunk: Number.POSITIVE_INFINITY },
  // Revoked tokens only: a live token has no `revoked_at`, so it is never below the cutoff.
  operator_api_tokens: { column: sql.raw("revoked_at"), maxChunk: Number.POSITIVE_INFINITY },
};

/**
 * Deletes up to `chunk` expired rows of `table` (those whose time column is more than
 * `olderThanSeconds` in the past), oldest first, in one short statement of its own: no lock is held
 * for long, and the caller loops while `more` says a chunk came back full (as the outbox pruner).
 * `chunk` is lowered to the table's own limit where its rows can be large.
 */
export async function pruneExpired(
  db: Db,
  table: PrunedTable,
  olderThanSeconds: number,
  chunk = 500,
): Promise<{ deleted: number; more: boolean }> {
  const { column, maxChunk } = expiry[table];
  const limit = Math.max(1, Math.min(chunk, maxChunk));
  const cutoff = sql`CURRENT_TIMESTAMP(3) - INTERVAL ${Math.round(olderThanSeconds)} SECOND`;
  // A refused close past the ordinary limit keeps its bytes in pieces: they go first, with the
  // rows about to go (a crash between the two leaves the row, deleted again with its pieces gone).
  if (table === "refused_closes") {
    const [rows] = (await db.execute(sql`
      SELECT tenant_id, body_sha256, body_pieces FROM refused_closes
      WHERE resolved_at < ${cutoff} ORDER BY resolved_at LIMIT ${limit}`)) as unknown as [
      Array<{ tenant_id: number | string; body_sha256: string; body_pieces: number | string }>,
    ];
    for (const row of rows)
      if (Number(row.body_pieces) > 0)
        await deleteClosePieces(db, { tenantId: Number(row.tenant_id), bodySha256: String(row.body_sha256) });
  }
  const [result] = await db.execute(sql`
    DELETE FROM ${sql.raw(table)}
    WHERE ${column} < ${cutoff}
    ORDER BY ${column} LIMIT ${limit}`);
  const deleted = (result as unknown as { affectedRows: number }).affectedRows;
  return { deleted, more: deleted >= limit };
}
