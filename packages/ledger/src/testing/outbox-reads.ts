import { sql } from "drizzle-orm";
import type { Rows, TestLedger } from "./test-ledger.ts";

/** Outbox rows whose side effect has not been applied yet. */
export async function unappliedOutboxRows(ledger: TestLedger): Promise<number> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT COUNT(*) AS n FROM outbox WHERE applied_at IS NULL`,
  )) as unknown as Rows<{
    n: string | number;
  }>;
  return Number(rows[0]?.n);
}

/** The newest outbox row owing a topic's effect: what the relay publishes (tests republish it by hand). */
export async function latestOutboxRow(
  ledger: TestLedger,
  topic: string,
): Promise<{ eventId: string; payload: unknown }> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT event_id, payload FROM outbox WHERE topic IN (${topic}, 'all') ORDER BY id DESC LIMIT 1`,
  )) as unknown as Rows<{ event_id: string; payload: string }>;
  const row = rows[0];
  if (!row) throw new Error(`no outbox row for ${topic}`);
  return { eventId: row.event_id, payload: JSON.parse(row.payload) };
}
