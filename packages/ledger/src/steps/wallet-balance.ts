import { and, eq, gte, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { wallets } from "../schema/wallets.ts";
import type { LockedWallet } from "./lock-wallet.ts";

/**
 * Debits only when the balance covers it (conditional SQL); undefined means insufficient funds.
 * The new balance is computed, not read back: the wallet row is locked since `lockPlayerWallet`
 * read it, so nothing else can have changed it (one statement fewer per callback).
 */
export async function debit(tx: Tx, wallet: LockedWallet, amount: bigint): Promise<bigint | undefined> {
  const [result] = await tx
    .update(wallets)
    .set({ balance: sql`${wallets.balance} - ${amount}`, updatedAt: sql`CURRENT_TIMESTAMP(3)` })
    .where(and(eq(wallets.id, wallet.id), gte(wallets.balance, amount)));
  if (result.affectedRows !== 1) return undefined;
  return wallet.balance - amount;
}

/** Credits the locked wallet; the new balance is computed as in `debit`. */
export async function credit(tx: Tx, wallet: LockedWallet, amount: bigint): Promise<bigint> {
  const [result] = await tx
    .update(wallets)
    .set({ balance: sql`${wallets.balance} + ${amount}`, updatedAt: sql`CURRENT_TIMESTAMP(3)` })
    .where(eq(wallets.id, wallet.id));
  if (result.affectedRows !== 1) throw new Error(`wallet ${wallet.id} vanished inside its own transaction`);
  return wallet.balance + amount;
}

/** The balance as the database holds it after this transaction's own changes. */
export async function readBalance(tx: Tx, walletId: number): Promise<bigint> {
  const [row] = await tx.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.id, walletId));
  if (!row) throw new Error(`wallet ${walletId} vanished inside its own transaction`);
  return row.balance;
}
