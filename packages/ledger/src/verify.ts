import { sql } from "drizzle-orm";
import type { Db } from "./db.ts";

export interface LedgerProblem {
  walletId: number;
  balance: bigint;
  journalSum: bigint;
  lastBalanceAfter: bigint | null;
  problem: string;
}

/**
 * Proves the ledger: every wallet's balance equals the sum of its journal, equals the
 * `balance_after` of its newest entry (the highest `wallet_seq`: ids give no order), and is not
 * negative; and its lines are numbered 1 … `seq` without a gap or a repeat. Returns the wallets that fail.
 */
export async function verifyLedger(db: Db): Promise<{ wallets: number; problems: LedgerProblem[] }> {
  const [rows] = (await db.execute(sql`
    SELECT w.id AS wallet_id, w.balance AS balance, w.seq AS seq,
           COALESCE(j.total, 0) AS journal_sum, COALESCE(j.line_count, 0) AS line_count, COALESCE(j.top, 0) AS top,
           (SELECT je.balance_after FROM journal_entries je WHERE je.wallet_id = w.id AND je.wallet_seq = w.seq) AS last_after
    FROM wallets w
    LEFT JOIN (SELECT wallet_id, SUM(amount) AS total, COUNT(*) AS line_count, MAX(wallet_seq) AS top
               FROM journal_entries GROUP BY wallet_id) j ON j.wallet_id = w.id
  `)) as unknown as [
    Array<{
      wallet_id: string;
      balance: string;
      seq: string | number;
      journal_sum: string;
      line_count: string | number;
      top: string | number;
      last_after: string | null;
    }>,
  ];
  const problems: LedgerProblem[] = [];
  for (const row of rows) {
    const balance = BigInt(row.balance);
    const journalSum = BigInt(row.journal_sum);
    const lastBalanceAfter = row.last_after === null ? null : BigInt(row.last_after);
    const issues: string[] = [];
    if (balance !== journalSum) issues.push(`balance ${balance} != journal sum ${journalSum}`);
    if (lastBalanceAfter !== null && lastBalanceAfter !== balance)
      issues.push(`newest balance_after ${lastBalanceAfter} != balance`);
    if (balance < 0n) issues.push("negative balance");
    const [seq, lines, top] = [Number(row.seq), Number(row.line_count), Number(row.top)];
    if (lines !== seq || top !== seq)
      issues.push(`journal lines numbered 1..${top} (${lines} lines) for seq ${seq}`);
    if (issues.length > 0) {
      problems.push({
        walletId: Number(row.wallet_id),
        balance,
        journalSum,
        lastBalanceAfter,
        problem: issues.join("; "),
      });
    }
  }
  return { wallets: rows.length, problems };
}
