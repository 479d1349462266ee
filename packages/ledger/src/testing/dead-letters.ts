import { sql } from "drizzle-orm";
import type { Db } from "../db.ts";

/**
 * A closed round whose stored close cannot be read (its stakes are not JSON: a row edited by hand,
 * say), with a valid outbox row: its reporting effect, the one that reads the close's arrays, fails
 * the same way each time; the other three apply.
 */
export async function seedUnreadableClose(db: Db, tenantId: number, roundId: string): Promise<void> {
  const eventId = `close-round:${tenantId}:${roundId}`;
  const providerTxId = `${roundId}-${tenantId}-close-round`;
  await db.execute(sql`
    INSERT INTO round_closes (tenant_id, round_id, provider_tx_id, operator_tx_id, game, bet_count, stakes, cash_out_coefficients)
    VALUES (${tenantId}, ${roundId}, ${providerTxId}, 'op-seed', 'g', 1, '[1000,', '[0]')`);
  const payload = JSON.stringify({ eventId, tenantId, roundId, game: "g", providerTxId });
  await db.execute(
    sql`INSERT INTO outbox (tenant_id, topic, event_id, payload) VALUES (${tenantId}, 'all', ${eventId}, ${payload})`,
  );
}

/** An outbox row whose payload is not an event at all: it can never be published. */
export async function seedUnreadableOutboxRow(db: Db, tenantId: number, roundId: string): Promise<void> {
  await db.execute(
    sql`INSERT INTO outbox (tenant_id, topic, event_id, payload) VALUES (${tenantId}, 'all', ${`close-round:${tenantId}:${roundId}`}, '{"eventId":')`,
  );
}

/** The repair an SRE would make to `seedUnreadableClose`'s row: its stakes readable again. */
export async function repairUnreadableClose(db: Db, tenantId: number, roundId: string): Promise<void> {
  await db.execute(
    sql`UPDATE round_closes SET stakes = '[1000]' WHERE tenant_id = ${tenantId} AND round_id = ${roundId}`,
  );
}

/** A round's failure records, by topic. */
export async function failuresOf(
  db: Db,
  roundId: string,
): Promise<Array<{ topic: string; attempts: number; dead: boolean }>> {
  const [rows] = (await db.execute(sql`
    SELECT topic, attempts, dead_at IS NOT NULL AS dead FROM side_effect_failures
    WHERE round_id = ${roundId} ORDER BY topic`)) as unknown as [
    Array<{ topic: string; attempts: number; dead: number }>,
  ];
  return rows.map((row) => ({
    topic: row.topic,
    attempts: Number(row.attempts),
    dead: Number(row.dead) === 1,
  }));
}

/** Every failed attempt recorded, all effects together: it stops growing once they are dead. */
export async function failedAttempts(db: Db): Promise<number> {
  const [rows] = (await db.execute(
    sql`SELECT COALESCE(SUM(attempts), 0) AS n FROM side_effect_failures`,
  )) as unknown as [Array<{ n: string | number }>];
  return Number(rows[0]?.n ?? 0);
}

/** Receipts of one event, all topics: exactly four once its effects are applied, however often retried. */
export async function receiptsOf(db: Db, eventId: string): Promise<number> {
  const [rows] = (await db.execute(
    sql`SELECT COUNT(*) AS n FROM side_effect_receipts WHERE event_id = ${eventId}`,
  )) as unknown as [Array<{ n: string | number }>];
  return Number(rows[0]?.n ?? 0);
}

/** One effect's failure record (undefined if it never failed), and whether its outbox row is dead. */
export async function failureOf(
  db: Db,
  eventId: string,
  topic: string,
): Promise<{ attempts: number; lastError: string; dead: boolean; outboxDead: boolean } | undefined> {
  const [rows] = (await db.execute(sql`
    SELECT f.attempts, f.last_error, f.dead_at IS NOT NULL AS dead,
           EXISTS (SELECT 1 FROM outbox o WHERE o.event_id = f.event_id AND o.dead_at IS NOT NULL) AS outbox_dead
    FROM side_effect_failures f WHERE f.event_id = ${eventId} AND f.topic = ${topic}`)) as unknown as [
    Array<{ attempts: number; last_error: string; dead: number; outbox_dead: number }>,
  ];
  const row = rows[0];
  return row
    ? {
        attempts: Number(row.attempts),
        lastError: row.last_error,
        dead: Number(row.dead) === 1,
        outboxDead: Number(row.outbox_dead) === 1,
      }
    : undefined;
}
