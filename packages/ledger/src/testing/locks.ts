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
  const connection = await mysql.createConnection(ledger.adminUrl);
  await connection.query("START TRANSACTION");
  await connection.query("SELECT balance FROM wallets WHERE player_id = ? FOR UPDATE", [playerId]);
  return {
    release: async () => {
      await connection.query("ROLLBACK").catch(() => {});
      await connection.end();
    },
  };
}

/**
 * Deadlocks InnoDB has detected, from its `lock_deadlocks` counter: MySQL 8.4 and MariaDB both have
 * it (the status variable `Innodb_deadlocks` is MariaDB's only: MySQL would read 0, and a deadlock
 * test could not fail). The counter is switched on first where it is off (MySQL's column is
 * STATUS = 'enabled', MariaDB's ENABLED = 1).
 */
export async function serverDeadlocks(ledger: TestLedger): Promise<number> {
  const read = async () =>
    (
      (await ledger.db.execute(
        sql`SELECT * FROM information_schema.INNODB_METRICS WHERE NAME = 'lock_deadlocks'`,
      )) as unknown as Rows<{ COUNT: string; ENABLED?: number; STATUS?: string }>
    )[0][0];
  let counter = await read();
  if (!counter) throw new Error("information_schema.INNODB_METRICS has no lock_deadlocks counter");
  if (!(Number(counter.ENABLED) === 1 || counter.STATUS === "enabled")) {
    await ledger.db.execute(sql`SET GLOBAL innodb_monitor_enable = 'lock_deadlocks'`);
    counter = await read();
  }
  return Number(counter?.COUNT ?? 0);
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
  const connection = await mysql.createConnection(ledger.adminUrl);
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
