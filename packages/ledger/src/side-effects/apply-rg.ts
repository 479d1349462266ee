import { sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { rgDaily } from "../schema/rg-daily.ts";
import type { PlayerInRound, RoundClose } from "./round-activity.ts";

/** Responsible-gaming counters for the UTC day the round closed: staked, won, net loss, rounds played. */
export async function countResponsibleGaming(
  tx: Tx,
  tenantId: number,
  close: RoundClose,
  players: PlayerInRound[],
) {
  const day = close.closedAt.toISOString().slice(0, 10);
  let counted = 0;
  for (const player of players) {
    if (player.bets === 0 && player.staked === 0n && player.won === 0n) continue;
    const netLoss = player.staked - player.won;
    const played = player.bets > 0 ? 1 : 0;
    await tx
      .insert(rgDaily)
      .values({
        playerId: player.playerId,
        day,
        tenantId,
        staked: player.staked,
        won: player.won,
        netLoss,
        rounds: played,
        updatedAt: sql`CURRENT_TIMESTAMP(3)`,
      })
      .onDuplicateKeyUpdate({
        set: {
          staked: sql`${rgDaily.staked} + ${player.staked}`,
          won: sql`${rgDaily.won} + ${player.won}`,
          netLoss: sql`${rgDaily.netLoss} + ${netLoss}`,
          rounds: sql`${rgDaily.rounds} + ${played}`,
          updatedAt: sql`CURRENT_TIMESTAMP(3)`,
        },
      });
    counted += 1;
  }
  return counted;
}
