import { type SQL, sql } from "drizzle-orm";
import { closePieceBytes } from "../close-pieces/pieces.ts";
import type { Db } from "../db.ts";

/**
 * The most bytes of rows one retention DELETE removes: 8 MiB. With `binlog_row_image=FULL` (MySQL's
 * and MariaDB's default) a DELETE's binary-log event carries every row it removes whole, and Group
 * Replication refuses a transaction over `group_replication_transaction_size_limit` (150,000,000
 * bytes by default) with 3100; TiDB's limits are 100 MiB a transaction (`txn-total-size-limit`) and
 * 6 MiB an entry (`txn-entry-size-limit`, the row a DELETE only names by its key). 8 MiB is a
 * twelfth of the smallest of them, and still a few hundred ordinary rows a statement. A row larger
 * than the budget (a body kept whole in its row before issue 39: up to 16 MiB of MEDIUMTEXT) is
 * deleted alone: every chunk takes at least one row, so such a row never stops the rows behind it.
 * It is at most 16 MiB and some columns, under every default limit above; only a server whose limit
 * was lowered below it refuses it, and then retention steps over it (`prune-expired.ts`).
 */
export const pruneBudgetBytes = 8 * 1024 * 1024;

/**
 * An upper bound of a row's bytes outside its large columns (ids, keys, short texts of at most 255
 * characters of up to 4 bytes, times): what `rowBytes` adds to the lengths it measures.
 */
export const rowOverheadBytes = 4096;

/** Where a pass has got to: the last row it looked at, in the order it deletes (time, then id). */
export interface PrunePosition {
  at: Date;
  id: number;
}

/** An expired row as a chunk is chosen: its size, and (refused closes) the pieces it takes along. */
export interface ExpiredRow extends PrunePosition {
  /** The row's stored bytes (an upper bound): what a DELETE's row image carries. */
  bytes: number;
  /** A refused close's pieces, deleted with it in statements of their own, and their bytes (at most). */
  pieces?: { tenantId: number; bodySha256: string; bytes: number };
}

/** What a row weighs in a chunk: itself, and the pieces deleted with it (the chunk's work, paced). */
export const chunkBytes = (row: ExpiredRow) => row.bytes + (row.pieces?.bytes ?? 0);

/** How a table's expired rows are found and weighed. */
export interface ExpiredRows {
  table: string;
  /** The time column rows expire by, the leading column of an index. */
  column: string;
  /** A row's large columns, in bytes (`LENGTH`). */
  largeBytes: SQL;
  /** Refused closes: the columns naming the pieces that go with a row. */
  pieces: boolean;
}

/**
 * The longest run of expired rows (oldest first, after `after`) whose summed bytes stay within
 * `budgetBytes`, at least one row and at most `maxRows`; `more`: it stopped at the budget or at
 * `maxRows`, not at the last expired row. Sizes are read a few rows at a time, doubling, so a chunk
 * of large rows reads the lengths of a few rows past it, not of `maxRows` (LENGTH of a long
 * MEDIUMTEXT reads the whole value).
 */
export async function expiredChunk(
  db: Db,
  rows: ExpiredRows,
  cutoff: SQL,
  options: { after?: PrunePosition; maxRows: number; budgetBytes: number },
): Promise<{ chunk: ExpiredRow[]; more: boolean }> {
  const chunk: ExpiredRow[] = [];
  let bytes = 0;
  let from = options.after;
  for (let page = 4; ; page = Math.min(page * 2, 128)) {
    const wanted = Math.min(page, options.maxRows - chunk.length);
    const found = await readExpired(db, rows, cutoff, from, wanted);
    for (const row of found) {
      if (chunk.length > 0 && bytes + chunkBytes(row) > options.budgetBytes) return { chunk, more: true };
      chunk.push(row);
      bytes += chunkBytes(row);
    }
    if (found.length < wanted) return { chunk, more: false };
    if (chunk.length >= options.maxRows) return { chunk, more: true };
    from = chunk.at(-1);
  }
}

async function readExpired(
  db: Db,
  rows: ExpiredRows,
  cutoff: SQL,
  after: PrunePosition | undefined,
  limit: number,
): Promise<ExpiredRow[]> {
  const column = sql.raw(rows.column);
  // The OR form of (time, id) > (?, ?): an index range on every server (MariaDB uses none for a row
  // comparison other than equality).
  const past = after
    ? sql`AND (${column} > ${after.at} OR (${column} = ${after.at} AND id > ${after.id}))`
    : sql``;
  const keys = rows.pieces ? sql`, tenant_id, body_sha256, body_pieces` : sql``;
  const [found] = (await db.execute(sql`
    SELECT id, ${column} AS expired_at, ${rows.largeBytes} AS large_bytes ${keys}
    FROM ${sql.raw(rows.table)}
    WHERE ${column} < ${cutoff} ${past}
    ORDER BY ${column}, id LIMIT ${limit}`)) as unknown as [
    Array<{
      id: number | string;
      expired_at: Date;
      large_bytes: number | string | null;
      tenant_id?: number | string;
      body_sha256?: string;
      body_pieces?: number | string;
    }>,
  ];
  return found.map((row) => ({
    id: Number(row.id),
    at: row.expired_at,
    bytes: Number(row.large_bytes ?? 0) + rowOverheadBytes,
    ...(Number(row.body_pieces ?? 0) > 0
      ? {
          pieces: {
            tenantId: Number(row.tenant_id),
            bodySha256: String(row.body_sha256),
            bytes: Number(row.body_pieces) * closePieceBytes,
          },
        }
      : {}),
  }));
}
