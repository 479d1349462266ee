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

/** An outbox row's topic, and whether it was published, applied or is dead, by its event id. */
export async function outboxRowState(
  ledger: TestLedger,
  eventId: string,
): Promise<{ topic: string; published: boolean; applied: boolean; dead: boolean } | undefined> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT topic, published_at, applied_at, dead_at FROM outbox WHERE event_id = ${eventId}`,
  )) as unknown as Rows<{
    topic: string;
    published_at: Date | null;
    applied_at: Date | null;
    dead_at: Date | null;
  }>;
  const row = rows[0];
  return (
    row && {
      topic: row.topic,
      published: row.published_at !== null,
      applied: row.applied_at !== null,
      dead: row.dead_at !== null,
    }
  );
}

/** The outbox rows whose event id starts with `prefix`: how many, and how many are published, applied, dead. */
export async function outboxRowsUnder(
  ledger: TestLedger,
  prefix: string,
): Promise<{ rows: number; published: number; applied: number; dead: number }> {
  const [rows] = (await ledger.db.execute(sql`
    SELECT COUNT(*) AS n, COUNT(published_at) AS published, COUNT(applied_at) AS applied, COUNT(dead_at) AS dead
    FROM outbox WHERE event_id LIKE ${`${prefix}%`}`)) as unknown as Rows<{
    n: string | number;
    published: string | number;
    applied: string | number;
    dead: string | number;
  }>;
  const row = rows[0];
  return {
    rows: Number(row?.n ?? 0),
    published: Number(row?.published ?? 0),
    applied: Number(row?.applied ?? 0),
    dead: Number(row?.dead ?? 0),
  };
}
