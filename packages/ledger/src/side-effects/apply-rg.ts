import type { ClosedRound } from "./round-activity.ts";
import { type Statement, upsertAdding } from "./upsert.ts";

/**
 * Responsible-gaming counters per player for the UTC day each round closed: staked, won, net loss,
 * rounds played. The batch's rounds are summed per (player, day) and written in one statement.
 */
export function countResponsibleGaming(rounds: ClosedRound[]): { writes: Statement[]; rows: number } {
  const days = new Map<
    string,
    { playerId: number; day: string; tenantId: number; staked: bigint; won: bigint; rounds: number }
  >();
  let counted = 0;
  for (const { event, close, players } of rounds) {
    const day = close.closedAt.toISOString().slice(0, 10);
    for (const player of players) {
      if (player.bets === 0 && player.staked === 0n && player.won === 0n) continue;
      const key = `${player.playerId}\n${day}`;
      const sum = days.get(key) ?? {
        playerId: player.playerId,
        day,
        tenantId: event.tenantId,
        staked: 0n,
        won: 0n,
        rounds: 0,
      };
      sum.staked += player.staked;
      sum.won += player.won;
      sum.rounds += player.bets > 0 ? 1 : 0;
      days.set(key, sum);
      counted += 1;
    }
  }
  const rows = [...days.values()]
    .sort((a, b) => a.playerId - b.playerId || a.day.localeCompare(b.day))
    .map((d) => [d.playerId, d.day, d.tenantId, d.staked, d.won, d.staked - d.won, d.rounds]);
  return {
    writes: upsertAdding(
      "rg_daily",
      ["player_id", "day", "tenant_id", "staked", "won", "net_loss", "rounds"],
      ["staked", "won", "net_loss", "rounds"],
      rows,
    ),
    rows: counted,
  };
}
