import { asc, eq, sql } from "drizzle-orm";
import { journalEntries } from "../schema/journal-entries.ts";
import { wallets } from "../schema/wallets.ts";
import type { Rows, TestLedger } from "./test-ledger.ts";

export async function balanceOf(ledger: TestLedger, playerId: number): Promise<bigint> {
  const [row] = await ledger.db
    .select({ balance: wallets.balance })
    .from(wallets)
    .where(eq(wallets.playerId, playerId));
  if (!row) throw new Error(`no wallet for player ${playerId}`);
  return row.balance;
}

export async function journalOf(ledger: TestLedger, playerId: number) {
  return ledger.db
    .select({
      kind: journalEntries.kind,
      amount: journalEntries.amount,
      balanceAfter: journalEntries.balanceAfter,
      providerTxId: journalEntries.providerTxId,
      operatorTxId: journalEntries.operatorTxId,
      roundId: journalEntries.roundId,
      anomaly: journalEntries.anomaly,
    })
    .from(journalEntries)
    .where(eq(journalEntries.playerId, playerId))
    .orderBy(asc(journalEntries.id));
}

const countedTables = [
  "idempotency_records",
  "journal_entries",
  "bets",
  "outbox",
  "operator_actions",
  "refused_closes",
  "round_closes",
  "round_reports",
  "side_effect_receipts",
] as const;

/** Rows in a ledger table, optionally only those of one `provider_tx_id`: for "nothing was written" checks. */
export async function countRows(
  ledger: Pick<TestLedger, "db">,
  table: (typeof countedTables)[number],
  providerTxId?: string,
): Promise<number> {
  if (!countedTables.includes(table)) throw new Error(`not a countable table: ${table}`);
  const where = providerTxId === undefined ? sql`` : sql` WHERE provider_tx_id = ${providerTxId}`;
  const [rows] = (await ledger.db.execute(
    sql`SELECT COUNT(*) AS n FROM ${sql.raw(table)}${where}`,
  )) as unknown as [Array<{ n: number | string }>];
  return Number(rows[0]?.n);
}

/** A player's responsible-gaming counters summed over every day: what the `rg` side effect added up. */
export async function rgTotals(
  ledger: TestLedger,
  playerId: number,
): Promise<{ staked: bigint; rounds: number }> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT COALESCE(SUM(staked), 0) AS staked, COALESCE(SUM(rounds), 0) AS rounds FROM rg_daily WHERE player_id = ${playerId}`,
  )) as unknown as Rows<{ staked: string; rounds: string }>;
  return { staked: BigInt(rows[0]?.staked ?? 0), rounds: Number(rows[0]?.rounds ?? 0) };
}
