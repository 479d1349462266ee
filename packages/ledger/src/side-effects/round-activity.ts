import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { bets } from "../schema/bets.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { roundCloses } from "../schema/round-closes.ts";

export interface PlayerInRound {
  playerId: number;
  currency: string;
  /** Real money staked, net of rollbacks. */
  staked: bigint;
  /** WIN and FREE_BET_WIN credited. */
  won: bigint;
  /** Bets placed (real and free), rolled-back ones excluded. */
  bets: number;
}

export interface RoundClose {
  closeId: number;
  game: string;
  closedAt: Date;
  stakes: bigint[];
  cashOutCoefficients: number[];
}

/**
 * What each of the tenant's players did in the round, from our own records: CLOSE_ROUND names no
 * player, so attribution comes from the journal and the bets, never from the platform's arrays.
 */
export async function playersInRound(tx: Tx, tenantId: number, roundId: string): Promise<PlayerInRound[]> {
  const money = await tx
    .select({
      playerId: journalEntries.playerId,
      currency: journalEntries.currency,
      staked: sql<string>`COALESCE(SUM(CASE WHEN ${journalEntries.kind} IN ('BET', 'ROLL_BACK') THEN -${journalEntries.amount} ELSE 0 END), 0)`,
      won: sql<string>`COALESCE(SUM(CASE WHEN ${journalEntries.kind} IN ('WIN', 'FREE_BET_WIN') THEN ${journalEntries.amount} ELSE 0 END), 0)`,
    })
    .from(journalEntries)
    .where(and(eq(journalEntries.tenantId, tenantId), eq(journalEntries.roundId, roundId)))
    .groupBy(journalEntries.playerId, journalEntries.currency);
  const counts = await tx
    .select({ playerId: bets.playerId, currency: bets.currency, bets: sql<string>`COUNT(*)` })
    .from(bets)
    .where(and(eq(bets.tenantId, tenantId), eq(bets.roundId, roundId), inArray(bets.status, ["open", "won"])))
    .groupBy(bets.playerId, bets.currency);

  const byPlayer = new Map<string, PlayerInRound>();
  const entry = (playerId: number, currency: string) => {
    const key = `${playerId}:${currency}`;
    let found = byPlayer.get(key);
    if (!found) {
      found = { playerId, currency, staked: 0n, won: 0n, bets: 0 };
      byPlayer.set(key, found);
    }
    return found;
  };
  for (const row of money) {
    const player = entry(row.playerId, row.currency);
    player.staked = BigInt(row.staked);
    player.won = BigInt(row.won);
  }
  for (const row of counts) entry(row.playerId, row.currency).bets = Number(row.bets);
  return [...byPlayer.values()].sort((a, b) => a.playerId - b.playerId);
}

export async function findRoundClose(
  tx: Tx,
  tenantId: number,
  roundId: string,
): Promise<RoundClose | undefined> {
  const [row] = await tx
    .select()
    .from(roundCloses)
    .where(and(eq(roundCloses.tenantId, tenantId), eq(roundCloses.roundId, roundId)));
  if (!row) return undefined;
  return {
    closeId: row.id,
    game: row.game,
    closedAt: row.createdAt,
    stakes: (JSON.parse(row.stakes) as number[]).map((stake) => BigInt(stake)),
    cashOutCoefficients: JSON.parse(row.cashOutCoefficients) as number[],
  };
}

/** The round's bets as we recorded them, tombstones excluded (a tombstone was never a bet). */
export async function betsInRound(tx: Tx, tenantId: number, roundId: string) {
  return tx
    .select({
      providerTxId: bets.providerTxId,
      kind: bets.kind,
      amount: bets.amount,
      wonAmount: bets.wonAmount,
      status: bets.status,
    })
    .from(bets)
    .where(and(eq(bets.tenantId, tenantId), eq(bets.roundId, roundId), ne(bets.status, "tombstone")));
}
