import { and, asc, desc, eq } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import { players } from "../schema/players.ts";
import { tournamentScores, tournaments } from "../schema/tournaments.ts";

/** A tournament's standings, best score first (ties: fewer rounds, then earlier). */
export async function tournamentLeaderboard({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; tournamentId: number; limit?: number };
}) {
  const { db } = ctx;
  const [tournament] = await db
    .select()
    .from(tournaments)
    .where(and(eq(tournaments.id, input.tournamentId), eq(tournaments.tenantId, input.tenantId)));
  if (!tournament) return undefined;
  const rows = await db
    .select({
      userId: players.userId,
      username: players.username,
      score: tournamentScores.score,
      rounds: tournamentScores.rounds,
    })
    .from(tournamentScores)
    .innerJoin(players, eq(players.id, tournamentScores.playerId))
    .where(eq(tournamentScores.tournamentId, tournament.id))
    .orderBy(desc(tournamentScores.score), asc(tournamentScores.rounds), asc(tournamentScores.updatedAt))
    .limit(input.limit ?? 100);
  return {
    tournament: {
      id: tournament.id,
      name: tournament.name,
      game: tournament.game,
      rule: tournament.rule,
      starts_at: tournament.startsAt.toISOString(),
      ends_at: tournament.endsAt.toISOString(),
    },
    leaderboard: rows.map((row, index) => ({
      rank: index + 1,
      user_id: row.userId,
      username: row.username,
      score: row.score,
      rounds: row.rounds,
    })),
  };
}
