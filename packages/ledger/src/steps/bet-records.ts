import { and, eq } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { bets } from "../schema/bets.ts";
import { rounds } from "../schema/rounds.ts";

export type BetRow = typeof bets.$inferSelect;

/** The bet with this platform id, locked: its win, rollback and late arrival apply one at a time. */
export async function lockBet(tx: Tx, tenantId: number, providerTxId: string): Promise<BetRow | undefined> {
  const [bet] = await tx
    .select()
    .from(bets)
    .where(and(eq(bets.tenantId, tenantId), eq(bets.providerTxId, providerTxId)))
    .for("update");
  return bet;
}

export async function insertBet(tx: Tx, bet: typeof bets.$inferInsert): Promise<number> {
  const [result] = await tx.insert(bets).values(bet);
  return result.insertId;
}

/** Marks the round as seen (its first bet opens it); later bets of the round change nothing. */
export async function openRound(tx: Tx, tenantId: number, roundId: string, game: string): Promise<void> {
  await tx.insert(rounds).ignore().values({ tenantId, roundId, game });
}
