import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { tournamentScores, tournaments } from "../schema/tournaments.ts";
import type { PlayerInRound, RoundClose } from "./round-activity.ts";

/**
 * For each tournament running on the round's game when it closed, every player of the round scores
 * by the tournament's rule: `payout` adds what the round paid them, `stake` what they staked.
 */
export async function scoreTournaments(
  tx: Tx,
  tenantId: number,
  close: RoundClose,
  players: PlayerInRound[],
) {
  const running = await tx
    .select({ id: tournaments.id, rule: tournaments.rule })
    .from(tournaments)
    .where(
      and(
        eq(tournaments.tenantId, tenantId),
        eq(tournaments.game, close.game),
        lte(tournaments.startsAt, close.closedAt),
        gt(tournaments.endsAt, close.closedAt),
      ),
    );
  let scored = 0;
  for (const tournament of running) {
    for (const player of players) {
      if (player.bets === 0 && player.staked === 0n) continue;
      const points = tournament.rule === "payout" ? player.won : player.staked;
      await tx
        .insert(tournamentScores)
        .values({
          tournamentId: tournament.id,
          playerId: player.playerId,
          score: points,
          rounds: 1,
          updatedAt: sql`CURRENT_TIMESTAMP(3)`,
        })
        .onDuplicateKeyUpdate({
          set: {
            score: sql`${tournamentScores.score} + ${points}`,
            rounds: sql`${tournamentScores.rounds} + 1`,
            updatedAt: sql`CURRENT_TIMESTAMP(3)`,
          },
        });
      scored += 1;
    }
  }
  return scored;
}
