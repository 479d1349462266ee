import { asc, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { outbox } from "../schema/outbox.ts";
import { withTransaction } from "../transaction.ts";

export interface OutboxRow {
  id: number;
  topic: string;
  eventId: string;
  payload: string;
}

/**
 * Publishes a batch of unpublished outbox rows and marks them, in one transaction that holds their
 * row locks: relays running side by side skip each other's rows (SKIP LOCKED), and a relay that
 * dies before its commit leaves its rows unpublished for the next one, so a crash republishes and
 * never skips. Publishing must be idempotent per event (deterministic job ids).
 */
export async function relayOutbox(
  db: Db,
  publish: (rows: OutboxRow[]) => Promise<void>,
  limit = 100,
): Promise<number> {
  return withTransaction(db, async (tx) => {
    const rows = await tx
      .select({ id: outbox.id, topic: outbox.topic, eventId: outbox.eventId, payload: outbox.payload })
      .from(outbox)
      .where(isNull(outbox.publishedAt))
      .orderBy(asc(outbox.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return 0;
    await publish(rows);
    await tx
      .update(outbox)
      .set({ publishedAt: sql`CURRENT_TIMESTAMP(3)` })
      .where(
        inArray(
          outbox.id,
          rows.map((row) => row.id),
        ),
      );
    return rows.length;
  });
}

/**
 * Rows published over `olderThanSeconds` ago whose effect was never applied: the job was lost
 * (Redis lost its data, say). They are marked unpublished again so the relay republishes them.
 */
export async function requeueUnapplied(db: Db, olderThanSeconds: number, limit = 500): Promise<number> {
  const [result] = await db.execute(sql`
    UPDATE outbox SET published_at = NULL
    WHERE applied_at IS NULL AND published_at < CURRENT_TIMESTAMP(3) - INTERVAL ${olderThanSeconds} SECOND
    ORDER BY id LIMIT ${limit}`);
  return (result as unknown as { affectedRows: number }).affectedRows;
}

/** Outbox backlog for monitoring: rows not yet applied and the age of the oldest, in seconds. */
export async function outboxBacklog(db: Db): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [rows] = (await db.execute(sql`
    SELECT COUNT(*) AS pending,
           COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(created_at), CURRENT_TIMESTAMP(3)) / 1000000, 0) AS oldest
    FROM outbox WHERE applied_at IS NULL`)) as unknown as [
    Array<{ pending: string | number; oldest: string | number }>,
  ];
  return { pending: Number(rows[0]?.pending ?? 0), oldestAgeSeconds: Number(rows[0]?.oldest ?? 0) };
}
