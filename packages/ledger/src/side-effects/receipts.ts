import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import { outbox } from "../schema/outbox.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";

/**
 * Claims `(topic, eventId)` inside the effect's transaction. False means it was applied before
 * (or a concurrent delivery applied it first: the unique key makes us wait for that commit).
 */
export async function claimEvent(tx: Tx, topic: string, eventId: string): Promise<boolean> {
  try {
    await tx.insert(sideEffectReceipts).values({ topic, eventId });
    return true;
  } catch (error) {
    if (mysqlErrno(error) === ER_DUP_ENTRY) return false;
    throw error;
  }
}

/** Marks the outbox row done, so the sweep stops looking at it. */
export async function markApplied(tx: Tx, topic: string, eventId: string): Promise<void> {
  await tx
    .update(outbox)
    .set({ appliedAt: sql`CURRENT_TIMESTAMP(3)` })
    .where(and(eq(outbox.topic, topic as "loyalty"), eq(outbox.eventId, eventId)));
}
