import { char, customType, int, mysqlTable, primaryKey, varchar } from "drizzle-orm/mysql-core";
import { createdAt, rowId } from "./columns.ts";

/** Raw bytes (MEDIUMBLOB on MySQL 8.4, MariaDB and TiDB alike), read and written as Buffers. */
const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "mediumblob" });

/** What a piece holds: a close's two arrays as JSON text, or the bytes of a refused close's body. */
export const closePieceParts = ["stakes", "coefficients", "body"] as const;
export type ClosePiecePart = (typeof closePieceParts)[number];

/**
 * A CLOSE_ROUND past the ordinary body limit, kept a piece at a time (`close-pieces/`), never as one
 * row, statement or transaction of its size: its arrays as the ledger stores them (written back as
 * JSON text, `round_closes.pieces_key` names them), or, refused, the bytes it came in, gzipped a
 * member per piece it arrived in (`refused_closes.body_pieces`). Keyed by the SHA-256 of the close's body, so a close sent again
 * writes the same rows; a piece is at most `closePieceBytes` (`close-pieces/pieces.ts`).
 */
export const closePieces = mysqlTable(
  "close_pieces",
  {
    tenantId: rowId("tenant_id").notNull(),
    bodySha256: char("body_sha256", { length: 64 }).notNull(),
    part: varchar("part", { length: 16, enum: closePieceParts }).notNull(),
    seq: int("seq").notNull(),
    bytes: bytes("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "close_pieces_pk", columns: [t.tenantId, t.bodySha256, t.part, t.seq] })],
);
