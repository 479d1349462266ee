import { sql } from "drizzle-orm";
import type { Rows, TestLedger } from "./test-ledger.ts";

/** The tables whose rows carry a `tenant_id`: what `tenantFootprint` counts. */
const tenantTables = [
  "players",
  "user_tokens",
  "game_sessions",
  "free_bet_grants",
  "journal_entries",
  "bets",
  "rounds",
  "operator_actions",
  "refused_closes",
  "round_closes",
  "outbox",
  "idempotency_records",
] as const;
export type TenantTable = (typeof tenantTables)[number];

/** Rows each table holds for one tenant: for "a callback under another tenant's key wrote nothing" checks. */
export async function tenantFootprint(
  ledger: TestLedger,
  tenantId: number,
): Promise<Record<TenantTable, number>> {
  const footprint = {} as Record<TenantTable, number>;
  for (const table of tenantTables) {
    const [rows] = (await ledger.db.execute(
      sql`SELECT COUNT(*) AS n FROM ${sql.raw(table)} WHERE tenant_id = ${tenantId}`,
    )) as unknown as Rows<{ n: number | string }>;
    footprint[table] = Number(rows[0]?.n);
  }
  return footprint;
}

/** The HTTP status stored under each of a tenant's idempotency keys that has one. */
export async function storedStatuses(
  ledger: TestLedger,
  tenantId: number,
  providerTxIds: string[],
): Promise<Record<string, number>> {
  if (providerTxIds.length === 0) return {};
  const [rows] = (await ledger.db.execute(sql`
    SELECT provider_tx_id AS providerTxId, status FROM idempotency_records
    WHERE tenant_id = ${tenantId} AND provider_tx_id IN (${sql.join(
      providerTxIds.map((id) => sql`${id}`),
      sql`, `,
    )})`)) as unknown as Rows<{ providerTxId: string; status: number | string }>;
  return Object.fromEntries(rows.map((row) => [row.providerTxId, Number(row.status)]));
}

/**
 * What a refusal must leave as it was: every row the tenant holds, but the refused closes (a refused
 * close is stored on purpose), and the sum of its wallets and of its free bets left, as text (bigint).
 */
export async function tenantMoves(ledger: TestLedger, tenantId: number) {
  const { refused_closes: _stored, ...rows } = await tenantFootprint(ledger, tenantId);
  const [sums] = (await ledger.db.execute(sql`
    SELECT (SELECT COALESCE(SUM(w.balance), 0) FROM wallets w JOIN players p ON p.id = w.player_id
             WHERE p.tenant_id = ${tenantId}) AS balances,
           (SELECT COALESCE(SUM(remaining), 0) FROM free_bet_grants WHERE tenant_id = ${tenantId}) AS freeBets
  `)) as unknown as Rows<{ balances: string | number; freeBets: string | number }>;
  return { ...rows, balances: String(sums[0]?.balances), freeBets: String(sums[0]?.freeBets) };
}
