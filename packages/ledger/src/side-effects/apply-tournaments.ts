import type { ClosedRound, RunningTournament } from "./round-activity.ts";
import { type Statement, upsertAdding } from "./upsert.ts";

/**
 * For each tournament running on a round's game when it closed, every player of the round scores
 * by the tournament's rule: `payout` adds what the round paid them, `stake` what they staked. The
 * scores are summed per (tournament, player) and written in one statement.
 */
export function scoreTournaments(
  rounds: ClosedRound[],
  candidates: RunningTournament[],
): { writes: Statement[]; rows: number } {
  const scores = new Map<string, { tournamentId: number; playerId: number; score: bigint; rounds: number }>();
  let scored = 0;
  for (const { event, close, players } of rounds) {
    const running = candidates.filter(
      (t) =>
        t.tenantId === event.tenantId &&
        t.game === close.game &&
        t.startsAt <= close.closedAt &&
        t.endsAt > close.closedAt,
    );
    for (const tournament of running) {
      for (const player of players) {
        // A late line's change has no bet of its own: it moves the score, not the rounds played.
        if (player.bets === 0 && player.staked === 0n && player.won === 0n) continue;
        const key = `${tournament.id}\n${player.playerId}`;
        const sum = scores.get(key) ?? {
          tournamentId: tournament.id,
          playerId: player.playerId,
          score: 0n,
          rounds: 0,
        };
        sum.score += tournament.rule === "payout" ? player.won : player.staked;
        sum.rounds += player.bets > 0 ? 1 : 0;
        scores.set(key, sum);
        scored += 1;
      }
    }
  }
  const rows = [...scores.values()]
    .sort((a, b) => a.tournamentId - b.tournamentId || a.playerId - b.playerId)
    .map((s) => [s.tournamentId, s.playerId, s.score, s.rounds]);
  return {
    writes: upsertAdding(
      "tournament_scores",
      ["tournament_id", "player_id", "score", "rounds"],
      ["score", "rounds"],
      rows,
    ),
    rows: scored,
  };
}
