import { sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { loyaltyAwards, loyaltyBalances } from "../schema/loyalty.ts";
import type { PlayerInRound } from "./round-activity.ts";

/** Points for every player who staked real money: `pointsPer1000` points per 1000 millis, rounded down. */
export async function awardLoyalty(
  tx: Tx,
  tenantId: number,
  roundId: string,
  players: PlayerInRound[],
  pointsPer1000: number,
): Promise<number> {
  let awarded = 0;
  for (const player of players) {
    if (player.staked <= 0n) continue;
    const points = (player.staked * BigInt(pointsPer1000)) / 1000n;
    await tx
      .insert(loyaltyAwards)
      .values({ tenantId, roundId, playerId: player.playerId, staked: player.staked, points });
    await tx
      .insert(loyaltyBalances)
      .values({ playerId: player.playerId, tenantId, points, updatedAt: sql`CURRENT_TIMESTAMP(3)` })
      .onDuplicateKeyUpdate({
        set: { points: sql`${loyaltyBalances.points} + ${points}`, updatedAt: sql`CURRENT_TIMESTAMP(3)` },
      });
    awarded += 1;
  }
  return awarded;
}
