import { sql } from "drizzle-orm";
import type { Rows, TestLedger } from "./test-ledger.ts";

/**
 * Holds a player's wallet row lock from a connection of the test's own, in an open transaction,
 * until `release` rolls it back: what a long-running concurrent transaction looks like to a verb.
 */
export async function holdWalletLock(
  ledger: TestLedger,
  playerId: number,
): Promise<{ release: () => Promise<void> }> {
  const mysql = await import("mysql2/promise");
  const connection = await mysql.createConnection(ledger.url);
  await connection.query("START TRANSACTION");
  await connection.query("SELECT balance FROM wallets WHERE player_id = ? FOR UPDATE", [playerId]);
  return {
    release: async () => {
      await connection.query("ROLLBACK").catch(() => {});
      await connection.end();
    },
  };
}

/** Deadlocks InnoDB has detected since the server started (MariaDB's `Innodb_deadlocks`). */
export async function serverDeadlocks(ledger: TestLedger): Promise<number> {
  const [rows] = (await ledger.db.execute(
    sql`SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'`,
  )) as unknown as Rows<{ Value: string }>;
  return Number(rows[0]?.Value ?? 0);
}

/**
 * A transaction of the test's own that takes a round's row lock, then the wallets of `playerIds`, in
 * the opposite order to a bet (wallet first, then the round's row): a deadlock with every bet of that
 * round in flight. InnoDB rolls back the lighter transaction (fewest undo records and locks), so this
 * one first locks every journal row, which no ledger transaction ever locks, to weigh more than a bet:
 * the bets are the victims. Resolves with whether it was the victim anyway.
 */
export async function lockRoundThenWallets(
  ledger: TestLedger,
  tenantId: number,
  roundId: string,
  playerIds: number[],
  holdMs: number,
): Promise<"victim" | "held"> {
  const mysql = await import("mysql2/promise");
  const connection = await mysql.createConnection(ledger.url);
  try {
    await connection.query("SET SESSION innodb_lock_wait_timeout = 5");
    await connection.query("START TRANSACTION");
    await connection.query("SELECT id FROM journal_entries FOR UPDATE");
    await connection.query("SELECT round_id FROM rounds WHERE tenant_id = ? AND round_id = ? FOR UPDATE", [
      tenantId,
      roundId,
    ]);
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    await connection.query("SELECT id FROM wallets WHERE player_id IN (?) FOR UPDATE", [playerIds]);
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    return "held";
  } catch (error) {
    if ((error as { errno?: number }).errno === 1213 || (error as { errno?: number }).errno === 1205)
      return "victim";
    throw error;
  } finally {
    await connection.query("ROLLBACK").catch(() => {});
    await connection.end();
  }
}
