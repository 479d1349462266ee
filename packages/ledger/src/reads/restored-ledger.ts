import { and, eq, inArray, sql } from "drizzle-orm";
import type { AnyMySqlColumn, MySqlTable } from "drizzle-orm/mysql-core";
import { tenantKey } from "../binlog/archived-rows.ts";
import type { Db } from "../db.ts";
import { bets } from "../schema/bets.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { players } from "../schema/players.ts";
import { roundRows } from "./rounds-at-risk.ts";

/**
 * What a restored ledger holds of the rows an archive names (`archived-after-point.ts`), looked up by
 * the keys that mean the same on both sides of a restore: a tenant's `provider_tx_id` and round ids.
 * Row ids are compared only for players the archive did not create (ids from before the point).
 */

const chunk = 500;

/** `read` over `values` 500 at a time (an IN list of bounded size), per tenant. */
async function perTenant<T, R>(
  items: Array<{ tenantId: number; value: T }>,
  read: (tenantId: number, values: T[]) => Promise<R[]>,
): Promise<R[]> {
  const found: R[] = [];
  for (const tenantId of new Set(items.map((item) => item.tenantId))) {
    const values = [...new Set(items.filter((item) => item.tenantId === tenantId).map((item) => item.value))];
    for (let at = 0; at < values.length; at += chunk)
      found.push(...(await read(tenantId, values.slice(at, at + chunk))));
  }
  return found;
}

const key = tenantKey;

/** Each table's columns in ordinal order, in the database the connection uses. */
export async function tableColumns(db: Db, tables: readonly string[]): Promise<Map<string, string[]>> {
  const [rows] = (await db.execute(sql`
    SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName FROM information_schema.COLUMNS
    WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${sql.join(
      tables.map((table) => sql`${table}`),
      sql`, `,
    )})
    ORDER BY TABLE_NAME, ORDINAL_POSITION`)) as unknown as [Array<{ tableName: string; columnName: string }>];
  const columns = new Map<string, string[]>();
  for (const row of rows) columns.set(row.tableName, [...(columns.get(row.tableName) ?? []), row.columnName]);
  return columns;
}

export async function databaseName(db: Db): Promise<string> {
  const [rows] = (await db.execute(sql`SELECT DATABASE() AS name`)) as unknown as [
    Array<{ name: string | null }>,
  ];
  const name = rows[0]?.name;
  if (!name) throw new Error("the database URL names no database");
  return name;
}

/** `tenant\nprovider_tx_id\nkind` of the journal lines the ledger holds among these. */
export async function journalLinesHeld(db: Db, lines: Array<{ tenantId: number; value: string }>) {
  const held = await perTenant(lines, (tenantId, values) =>
    db
      .select({
        tenantId: journalEntries.tenantId,
        providerTxId: journalEntries.providerTxId,
        kind: journalEntries.kind,
      })
      .from(journalEntries)
      .where(and(eq(journalEntries.tenantId, tenantId), inArray(journalEntries.providerTxId, values))),
  );
  return new Set(held.map((line) => `${key(line.tenantId, line.providerTxId ?? "")}\n${line.kind}`));
}

/** `tenant\n<value>` of the rows of `table` whose `column` holds one of these values, per tenant. */
async function keysHeld(
  db: Db,
  items: Array<{ tenantId: number; value: string }>,
  table: MySqlTable,
  tenantColumn: AnyMySqlColumn,
  column: AnyMySqlColumn,
): Promise<Set<string>> {
  const held = await perTenant(items, (tenantId, values) =>
    db
      .select({ tenantId: tenantColumn, value: column })
      .from(table)
      .where(and(eq(tenantColumn, tenantId), inArray(column, values))),
  );
  return new Set(held.map((row) => key(Number(row.tenantId), String(row.value))));
}

/** `tenant\nprovider_tx_id` of the bets the ledger holds among these. */
export const betsHeld = (db: Db, items: Array<{ tenantId: number; value: string }>) =>
  keysHeld(db, items, bets, bets.tenantId, bets.providerTxId);

/** `tenant\nprovider_tx_id` of the stored answers the ledger holds among these. */
export const answersHeld = (db: Db, items: Array<{ tenantId: number; value: string }>) =>
  keysHeld(db, items, idempotencyRecords, idempotencyRecords.tenantId, idempotencyRecords.providerTxId);

/** `tenant\nuser_id` of the players the ledger holds among these. */
export const usersHeld = (db: Db, items: Array<{ tenantId: number; value: string }>) =>
  keysHeld(db, items, players, players.tenantId, players.userId);

/** These rounds as the ledger holds them, and the players who bet in them. */
export async function roundsHeld(db: Db, items: Array<{ tenantId: number; value: string }>) {
  // The rounds' own rows, read as rounds:at-risk reads them (one read, 500 ids at a time).
  const held = await roundRows(
    db,
    items.map((item) => ({ tenantId: item.tenantId, roundId: item.value })),
  );
  const bettors = await perTenant(items, (tenantId, values) =>
    db
      .selectDistinct({ tenantId: bets.tenantId, roundId: bets.roundId, playerId: bets.playerId })
      .from(bets)
      .where(and(eq(bets.tenantId, tenantId), inArray(bets.roundId, values))),
  );
  return { rounds: new Map(held.map((round) => [key(round.tenantId, round.roundId), round])), bettors };
}

/** Player row id → user id, for ids from before the point. */
export async function userIdsOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  const found = await perTenant(
    ids.map((id) => ({ tenantId: 0, value: id })),
    (_tenant, values) =>
      db.select({ id: players.id, userId: players.userId }).from(players).where(inArray(players.id, values)),
  );
  return new Map(found.map((player) => [player.id, player.userId]));
}
