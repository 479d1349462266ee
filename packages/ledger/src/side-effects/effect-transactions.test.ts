import { describe, expect, it } from "vitest";
import { effectTransactions } from "./effect-transactions.ts";
import type { ClosedRound, PlayerInRound } from "./round-activity.ts";

const player = (playerId: number, staked = 1_000n): PlayerInRound => ({
  playerId,
  currency: "EUR",
  staked,
  won: 0n,
  bets: staked === 0n ? 0 : 1,
});
const round = (roundId: string, players: PlayerInRound[]): ClosedRound => ({
  event: { eventId: `close-round:1:${roundId}`, tenantId: 1, roundId, game: "crashGame", providerTxId: "p" },
  close: { game: "crashGame", closedAt: new Date(0) },
  players,
  roundPlayers: players,
  revision: 1,
});
const shape = (transactions: ClosedRound[][]) =>
  transactions.map((rounds) =>
    rounds.map((r) => `${r.event.eventId.slice(14)}:${r.players.map((p) => p.playerId).join(",")}`),
  );

describe("a side-effect job's transactions (effectTransactions)", () => {
  it("groups rounds while their receipts and players fit, in order; players that move nothing count nothing", () => {
    const rounds = [
      round("a", [player(1), player(2)]),
      round("b", [player(3), player(4, 0n)]),
      round("c", [player(5), player(6), player(7)]),
    ];
    expect(shape(effectTransactions("rg", rounds, 5))).toEqual([["a:1,2", "b:3,4"], ["c:5,6,7"]]);
    // Reporting writes a row a round: only receipts count.
    expect(shape(effectTransactions("reporting", rounds, 2))).toEqual([["a:1,2", "b:3,4"], ["c:5,6,7"]]);
  });

  it("splits a round past one transaction into parts of its moving players, each its own receipt, the last under the event's id", () => {
    const big = round("big", [1, 2, 3, 4, 5].map((id) => player(id)).concat(player(9, 0n)));
    const parts = effectTransactions("loyalty", [round("small", [player(8)]), big, round("after", [])], 3);
    expect(shape(parts)).toEqual([["small:8"], ["big#1/3:1,2"], ["big#2/3:3,4"], ["big:5"], ["after:"]]);
    expect(parts.map((rounds) => rounds[0]?.partOf)).toEqual([
      undefined,
      "close-round:1:big",
      "close-round:1:big",
      undefined,
      undefined,
    ]);
  });
});
