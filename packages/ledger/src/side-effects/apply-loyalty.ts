import type { ClosedRound } from "./round-activity.ts";
import { insertAdding, type Statement, upsertAdding } from "./upsert.ts";

/**
 * Points for every player who staked real money in each round: `pointsPer1000` points per 1000
 * millis of the round's stake, rounded down. One award row per (round, player) for audit, and each
 * player's balance moved once by the sum of the batch's awards: two statements, however many rounds.
 * A late line (`closedRoundOf`) earns what it adds to the round's rounded total: the points of the
 * player's stake with it less those without it (a late refund takes points back the same way), so
 * a round whose lines came late ends with the points it would have earned in order, whichever of
 * its events is applied first (BET 1500, close, late BET 500: 1 + 1 = 2, not 1 + 0).
 */
export function awardLoyalty(
  rounds: ClosedRound[],
  pointsPer1000: number,
): { writes: Statement[]; rows: number } {
  const points = (staked: bigint) => floorDiv(staked * BigInt(pointsPer1000), 1000n);
  const awards = new Map<
    string,
    { tenantId: number; roundId: string; playerId: number; staked: bigint; points: bigint }
  >();
  for (const { event, players, stakedBefore } of rounds) {
    // One row per (round, player) even if two currencies: their stakes count together.
    const byPlayer = new Map<number, bigint>();
    for (const player of players)
      if (player.staked !== 0n)
        byPlayer.set(player.playerId, (byPlayer.get(player.playerId) ?? 0n) + player.staked);
    for (const [playerId, staked] of byPlayer) {
      const before = stakedBefore ?? 0n;
      const earned = points(before + staked) - points(before);
      const key = `${event.tenantId}\n${event.roundId}\n${playerId}`;
      const award = awards.get(key) ?? {
        tenantId: event.tenantId,
        roundId: event.roundId,
        playerId,
        staked: 0n,
        points: 0n,
      };
      award.staked += staked;
      award.points += earned;
      awards.set(key, award);
    }
  }
  const balances = new Map<number, { tenantId: number; points: bigint }>();
  for (const award of awards.values()) {
    const sum = (balances.get(award.playerId)?.points ?? 0n) + award.points;
    balances.set(award.playerId, { tenantId: award.tenantId, points: sum });
  }
  return {
    writes: [
      ...insertAdding(
        "loyalty_awards",
        ["tenant_id", "round_id", "player_id", "staked", "points"],
        ["staked", "points"],
        [...awards.values()]
          // Key order (a late line's award adds to its close's row): two batches lock shared rows alike.
          .sort(
            (a, b) =>
              a.tenantId - b.tenantId || a.roundId.localeCompare(b.roundId) || a.playerId - b.playerId,
          )
          .map((a) => [a.tenantId, a.roundId, a.playerId, a.staked, a.points]),
      ),
      ...upsertAdding(
        "loyalty_balances",
        ["player_id", "tenant_id", "points"],
        ["points"],
        [...balances].sort(([a], [b]) => a - b).map(([playerId, b]) => [playerId, b.tenantId, b.points]),
      ),
    ],
    rows: awards.size,
  };
}

/** Rounded toward minus infinity: a running total taken back below a multiple loses that point. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
