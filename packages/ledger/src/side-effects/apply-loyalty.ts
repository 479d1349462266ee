import type { ClosedRound } from "./round-activity.ts";
import { insertAdding, type Statement, upsertAdding } from "./upsert.ts";

/**
 * Points for every player who staked real money in each round: `pointsPer1000` points per 1000
 * millis, rounded down. One award row per (round, player) for audit, and each player's balance
 * moved once by the sum of the batch's awards: two statements, however many rounds. A late line
 * (`closedRoundOf`) adds its stake to the round's award, or takes a late refund's back, rounded on its own.
 */
export function awardLoyalty(
  rounds: ClosedRound[],
  pointsPer1000: number,
): { writes: Statement[]; rows: number } {
  const awards = new Map<string, { tenantId: number; roundId: string; playerId: number; staked: bigint }>();
  for (const { event, players } of rounds) {
    for (const player of players) {
      if (player.staked === 0n) continue;
      const key = `${event.tenantId}\n${event.roundId}\n${player.playerId}`;
      const staked = (awards.get(key)?.staked ?? 0n) + player.staked; // one row even if two currencies
      awards.set(key, {
        tenantId: event.tenantId,
        roundId: event.roundId,
        playerId: player.playerId,
        staked,
      });
    }
  }
  const points = (staked: bigint) => (staked * BigInt(pointsPer1000)) / 1000n;
  const balances = new Map<number, { tenantId: number; points: bigint }>();
  for (const award of awards.values()) {
    const sum = (balances.get(award.playerId)?.points ?? 0n) + points(award.staked);
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
          .map((a) => [a.tenantId, a.roundId, a.playerId, a.staked, points(a.staked)]),
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
