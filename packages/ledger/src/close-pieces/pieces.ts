import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import type { Db } from "../db.ts";
import { type ClosePiecePart, closePieces } from "../schema/close-pieces.ts";
import { beginStatements, multiStatementTransaction, writeAndCommit } from "../sql/multi-statement.ts";

/**
 * The most one piece holds: 128 KiB, a row far under TiDB's 6 MiB entry limit, a statement far under
 * any server's `max_allowed_packet` (MariaDB's default is 16 MiB, MySQL 8.4's and TiDB's 64 MiB).
 * Small, too, for the worker's memory: buffers of 256 KiB and more are mapped and unmapped whole,
 * and an 8 MiB close stored in pieces of 512 KiB raised the worker's resident memory by 30 MiB
 * against 4 (`docs/performance.md`).
 */
export const closePieceBytes = 128 * 1024;
/** Pieces per transaction: 2 MiB at most, whatever the close (Group Replication refuses 150 MB). */
export const piecesPerCommit = 16;

export interface PiecesKey {
  tenantId: number;
  bodySha256: string;
}

/**
 * Stores `chunks` (any sizes) as pieces of at most `closePieceBytes`, numbered from 0, a few per
 * transaction. A piece written before (the same close sent again, or a run taken back and run
 * again) is left as it is: under one key a piece always holds the same bytes. Returns the count.
 * Each piece is a prepared statement's parameter, sent as its bytes: as text (hex, twice its size,
 * then the whole statement) every 8 MiB close left some 60 MB of strings for the collector.
 */
export async function storeClosePieces(
  ctx: LedgerContext,
  key: PiecesKey,
  part: ClosePiecePart,
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<number> {
  let seq = 0;
  let pending: Buffer[] = [];
  const commit = async () => {
    const first = seq;
    const pieces = pending;
    pending = [];
    seq += pieces.length;
    if (pieces.length === 0) return;
    await multiStatementTransaction(ctx, async (connection) => {
      await connection.query(beginStatements.join(";\n"));
      for (const [index, bytes] of pieces.entries())
        await connection.execute(insertPiece, [key.tenantId, key.bodySha256, part, first + index, bytes]);
      await writeAndCommit(connection, []);
    });
  };
  for await (const bytes of regroup(chunks)) {
    pending.push(bytes);
    if (pending.length >= piecesPerCommit) await commit();
  }
  await commit();
  return seq;
}

const insertPiece =
  "INSERT INTO close_pieces (tenant_id, body_sha256, part, seq, bytes) VALUES (?, ?, ?, ?, ?)" +
  " ON DUPLICATE KEY UPDATE seq = seq";

/** Chunks of any size as pieces of exactly `closePieceBytes` (the last one shorter). */
async function* regroup(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk);
    while (size + bytes.length >= closePieceBytes) {
      const room = closePieceBytes - size;
      held.push(bytes.subarray(0, room));
      yield Buffer.concat(held);
      held = [];
      size = 0;
      bytes = bytes.subarray(room);
    }
    if (bytes.length > 0) {
      held.push(bytes);
      size += bytes.length;
    }
  }
  if (size > 0) yield Buffer.concat(held);
}

/** The pieces of one part, in order, a few per round trip. */
export async function* readClosePieces(db: Db, key: PiecesKey, part: ClosePiecePart): AsyncGenerator<Buffer> {
  for (let from = 0; ; ) {
    const rows = await db
      .select({ seq: closePieces.seq, bytes: closePieces.bytes })
      .from(closePieces)
      .where(
        and(
          eq(closePieces.tenantId, key.tenantId),
          eq(closePieces.bodySha256, key.bodySha256),
          eq(closePieces.part, part),
          gte(closePieces.seq, from),
        ),
      )
      .orderBy(asc(closePieces.seq))
      .limit(piecesPerCommit);
    for (const row of rows) yield row.bytes;
    if (rows.length < piecesPerCommit) return;
    from = (rows.at(-1)?.seq ?? from) + 1;
  }
}

/** One part's pieces as a string (a close's array as JSON text). */
export async function closePiecesText(db: Db, key: PiecesKey, part: ClosePiecePart): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of readClosePieces(db, key, part)) pieces.push(piece);
  return Buffer.concat(pieces).toString("utf8");
}

/** Deletes every piece under `key`, a few per statement (no transaction of a close's size). */
export async function deleteClosePieces(db: Db, key: PiecesKey): Promise<void> {
  for (;;) {
    const [result] = await db.execute(
      sql`DELETE FROM close_pieces WHERE tenant_id = ${key.tenantId} AND body_sha256 = ${key.bodySha256}
        ORDER BY part, seq LIMIT ${piecesPerCommit}`,
    );
    if ((result as unknown as { affectedRows: number }).affectedRows < piecesPerCommit) return;
  }
}

/**
 * After its round was closed by another close (or its key by another body, a 409), a large close's
 * pieces are named by no row: deleted. Kept when the round's close is this very body (a resend).
 */
export async function dropUnusedClosePieces(db: Db, key: PiecesKey, roundId: string): Promise<void> {
  const [rows] = (await db.execute(
    sql`SELECT pieces_key FROM round_closes WHERE tenant_id = ${key.tenantId} AND round_id = ${roundId}`,
  )) as unknown as [Array<{ pieces_key: string | null }>];
  if (rows[0]?.pieces_key === key.bodySha256) return;
  await deleteClosePieces(db, key);
}
