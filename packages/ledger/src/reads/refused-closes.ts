import { and, desc, eq, isNull } from "drizzle-orm";
import { readClosePieces } from "../close-pieces/pieces.ts";
import type { Db } from "../db.ts";
import { refusedCloses } from "../schema/refused-closes.ts";

/** An operator's refused closes, newest first: the open ones, or all. */
export async function listRefusedCloses(
  db: Db,
  input: { tenantId: number; includeResolved: boolean; limit: number },
) {
  const rows = await db
    .select()
    .from(refusedCloses)
    .where(
      and(
        eq(refusedCloses.tenantId, input.tenantId),
        input.includeResolved ? undefined : isNull(refusedCloses.resolvedAt),
      ),
    )
    .orderBy(desc(refusedCloses.createdAt), desc(refusedCloses.id))
    .limit(input.limit);
  return rows.map((row) => ({
    id: row.id,
    round_id: row.roundId,
    provider_tx_id: row.providerTxId,
    reason: row.reason,
    message: row.message,
    /** The body as received, as text: what the platform sent (its start, past the ordinary limit). */
    body: row.body,
    body_bytes: row.bodyBytes,
    /** Whether `body` is the whole body; if not, its bytes are at `refusedCloseBody`. */
    body_complete: row.bodyPieces === 0,
    refused_at: row.createdAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolution: row.resolution,
  }));
}

/**
 * A refused close's body as received, for an SRE to read or correct: the bytes of a large one, a
 * piece at a time from `close_pieces` (gzipped: a member per piece), or the text its row holds. Undefined: no such refusal for
 * this operator.
 */
export async function refusedCloseBody(
  db: Db,
  input: { tenantId: number; id: number },
): Promise<
  | { bytes: number | null; gzipped: boolean; pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array> }
  | undefined
> {
  const [row] = await db
    .select({
      bodySha256: refusedCloses.bodySha256,
      body: refusedCloses.body,
      bodyPieces: refusedCloses.bodyPieces,
      bodyBytes: refusedCloses.bodyBytes,
    })
    .from(refusedCloses)
    .where(and(eq(refusedCloses.tenantId, input.tenantId), eq(refusedCloses.id, input.id)));
  if (!row) return undefined;
  if (row.bodyPieces === 0) return { bytes: null, gzipped: false, pieces: [Buffer.from(row.body, "utf8")] };
  const key = { tenantId: input.tenantId, bodySha256: row.bodySha256 };
  // Its pieces hold the body gzipped (the close intake compresses each piece as it stores it).
  return { bytes: row.bodyBytes, gzipped: true, pieces: readClosePieces(db, key, "body") };
}
