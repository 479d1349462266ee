import { sql } from "drizzle-orm";
import type { Db } from "../db.ts";

const DAY = 86_400;

/**
 * `count` outbox rows named `<prefix>1…`, published, applied and dead (an effect failed for good)
 * that many days ago (null: not), inserted server-side in chunks (tests and the retention benchmark
 * seed large outboxes with it).
 */
export async function seedOutbox(
  db: Db,
  prefix: string,
  count: number,
  days: { applied: number | null; published: number | null; dead?: number | null },
  chunk = 200_000,
): Promise<void> {
  const ago = (value: number | null | undefined) =>
    value == null ? sql`NULL` : sql`CURRENT_TIMESTAMP(3) - INTERVAL ${Math.round(value * DAY)} SECOND`;
  const createdAgo = Math.round(Math.max(days.published ?? 0, days.applied ?? 0, days.dead ?? 0) * DAY);
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    await db.execute(sql`
      INSERT INTO outbox (tenant_id, topic, event_id, payload, published_at, applied_at, dead_at, created_at)
      SELECT 1, 'loyalty', CONCAT(${prefix}, seq), '{}', ${ago(days.published)}, ${ago(days.applied)},
             ${ago(days.dead)}, CURRENT_TIMESTAMP(3) - INTERVAL ${createdAgo} SECOND
      FROM seq_${sql.raw(String(from))}_to_${sql.raw(String(to))}`);
  }
}

/** A closed round with its outbox row, as CLOSE_ROUND leaves it (for reads that need a real close). */
export async function seedClosedRound(db: Db, tenantId: number, roundId: string): Promise<void> {
  const eventId = `close-round:${tenantId}:${roundId}`;
  await db.execute(
    sql`INSERT INTO rounds (tenant_id, round_id, game, closed_at) VALUES (${tenantId}, ${roundId}, 'g', CURRENT_TIMESTAMP(3))`,
  );
  await db.execute(sql`
    INSERT INTO round_closes (tenant_id, round_id, provider_tx_id, operator_tx_id, game, bet_count, stakes, cash_out_coefficients)
    VALUES (${tenantId}, ${roundId}, ${`${roundId}-${tenantId}-close-round`}, 'op-seed', 'g', 0, '[]', '[]')`);
  await db.execute(
    sql`INSERT INTO outbox (tenant_id, topic, event_id, payload) VALUES (${tenantId}, 'all', ${eventId}, '{}')`,
  );
}

/**
 * An unpublished outbox row of any `topic`, one this version may not know (a newer version's, or a
 * row written by hand): what the relay must count and leave unapplied.
 */
export async function seedOutboxRow(
  db: Db,
  row: { tenantId: number; topic: string; eventId: string; payload: string },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO outbox (tenant_id, topic, event_id, payload) VALUES (${row.tenantId}, ${row.topic}, ${row.eventId}, ${row.payload})`,
  );
}
