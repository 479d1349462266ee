import { and, desc, eq, isNull } from "drizzle-orm";
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
    /** The body as received, as text: what the platform sent, byte for byte. */
    body: row.body,
    refused_at: row.createdAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolution: row.resolution,
  }));
}
