import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { type ClosePiecePart, closePieces } from "../schema/close-pieces.ts";
import { withTransaction } from "../transaction.ts";

/**
 * The most one piece holds: 512 KiB, a row far under TiDB's 6 MiB entry limit, a statement (its
 * bytes written as hex, 1 MiB) far under any server's `max_allowed_packet` (MariaDB's default is
 * 16 MiB, MySQL 8.4's and TiDB's 64 MiB).
 */
export const closePieceBytes = 512 * 1024;
/** Pieces per transaction: 2 MiB at most, whatever the close (Group Replication refuses 150 MB). */
const piecesPerCommit = 4;

export interface PiecesKey {
  tenantId: number;
  bodySha256: string;
}

/**
 * Stores `chunks` (any sizes) as pieces of at most `closePieceBytes`, numbered from 0, a few per
 * transaction. A piece written before (the same close sent again, or a run taken back and run
 * again) is left as it is: under one key a piece always holds the same bytes. Returns the count.
 */
export async function storeClosePieces(
  db: Db,
  key: PiecesKey,
  part: ClosePiecePart,
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): Promise<number> {
  let seq = 0;
  let pending: Buffer[] = [];
  const commit = async () => {
    const rows = pending.map((bytes) => ({ ...key, part, seq: seq++, bytes }));
    pending = [];
    if (rows.length === 0) return;
    await withTransaction(db, async (tx) => {
      for (const row of rows)
        await tx
          .insert(closePieces)
          .values(row)
          .onDuplicateKeyUpdate({ set: { seq: sql`${closePieces.seq}` } });
    });
  };
  for await (const bytes of regroup(chunks)) {
    pending.push(bytes);
    if (pending.length >= piecesPerCommit) await commit();
  }
  await commit();
  return seq;
}

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
