import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectedPayout, type OperatorBet, reconcileRound } from "./reconcile.ts";

/**
 * Rounds as the platform plays them (the simulator's rules): cash bets of whole hundreds, free bets
 * listed at a nominal stake we never see, coefficients in hundredths (0, 1.00 or lower for a lost
 * bet), single bets or whole rounds rolled back, the close's arrays in any order. Our records are
 * what the wallet books for them, wins rounded either way by one milli at most.
 */
const NOMINAL = 1_001n; // not a whole hundred: no cash stake can stand in for it

interface PlayedBet {
  free: boolean;
  stake: bigint;
  /** Hundredths; 100 or less is a lost bet. */
  hundredths: number;
  rolledBack: boolean;
  /** A rolled-back bet the close leaves out (the contract allows both). */
  omitted: boolean;
  rounding: bigint;
}

const playedBet = fc.record({
  free: fc.boolean(),
  stake: fc.integer({ min: 1, max: 50 }).map((hundreds) => BigInt(hundreds * 100)),
  hundredths: fc.oneof(fc.constantFrom(0, 50, 100), fc.integer({ min: 101, max: 100_000 })),
  rolledBack: fc.boolean(),
  omitted: fc.boolean(),
  rounding: fc.constantFrom(-1n, 0n, 0n, 0n, 1n),
});

const round = fc.record({
  voided: fc.boolean(),
  bets: fc.array(playedBet, { minLength: 1, maxLength: 25 }),
  order: fc.array(fc.nat(), { minLength: 25, maxLength: 25 }),
});

interface Scenario {
  stakes: bigint[];
  coefficients: number[];
  ours: OperatorBet[];
  /** For each position of the close, the bet it lists. */
  listed: number[];
}

function play({ voided, bets, order }: { voided: boolean; bets: PlayedBet[]; order: number[] }): Scenario {
  const ours = bets.map((bet, index): OperatorBet => {
    const rolledBack = voided || bet.rolledBack;
    const listedStake = bet.free ? NOMINAL : bet.stake;
    const won = rolledBack ? 0n : expectedPayout(listedStake, bet.hundredths / 100);
    return {
      providerTxId: `bet-${index}`,
      kind: bet.free ? "FREE_BET" : "BET",
      amount: bet.free ? 0n : bet.stake,
      wonAmount: won > 0n ? won + bet.rounding : 0n,
      status: rolledBack ? "rolled_back" : won > 0n ? "won" : "open",
    };
  });
  const listed = bets
    .map((bet, index) => ({ bet, index, rank: order[index] ?? 0 }))
    .filter(({ bet }) => !((voided || bet.rolledBack) && bet.omitted))
    .sort((a, b) => a.rank - b.rank)
    .map(({ index }) => index);
  return {
    stakes: listed.map((index) => (bets[index]?.free ? NOMINAL : (bets[index]?.stake as bigint))),
    coefficients: listed.map((index) => {
      const bet = bets[index] as PlayedBet;
      return voided || bet.rolledBack ? 0 : bet.hundredths / 100;
    }),
    ours,
    listed,
  };
}

/** A coefficient whose payout at `stake` is more than a milli away from every payout of ours. */
function strangeCoefficient(stake: bigint, ours: OperatorBet[]): number {
  for (let hundredths = 101; ; hundredths++) {
    const payout = expectedPayout(stake, hundredths / 100);
    const far = (bet: OperatorBet) => payout - bet.wonAmount > 1n || bet.wonAmount - payout > 1n;
    if (ours.every(far)) return hundredths / 100;
  }
}

describe("reconcileRound, over every round the platform can play", () => {
  it("a consistent close is matched, whatever the order, free bets and rollbacks", () => {
    fc.assert(
      fc.property(round, (played) => {
        const { stakes, coefficients, ours } = play(played);
        expect(reconcileRound(stakes, coefficients, ours)).toMatchObject({
          status: "matched",
          differences: [],
        });
      }),
      { numRuns: 2_000 },
    );
  });

  it("a coefficient changed is a mismatch naming that position", () => {
    fc.assert(
      fc.property(round, fc.nat(), (played, pick) => {
        const scenario = play(played);
        if (scenario.stakes.length === 0) return;
        const at = pick % scenario.stakes.length;
        const coefficients = [...scenario.coefficients];
        coefficients[at] = strangeCoefficient(scenario.stakes[at] as bigint, scenario.ours);
        const result = reconcileRound(scenario.stakes, coefficients, scenario.ours);
        expect(result.status).toBe("mismatch");
        expect(result.differences).toContainEqual(
          expect.objectContaining({
            kind: "platform_bet_not_found",
            index: at,
            coefficient: coefficients[at],
          }),
        );
      }),
      { numRuns: 1_000 },
    );
  });

  it("a winning cash stake changed is a mismatch", () => {
    fc.assert(
      fc.property(round, fc.nat(), (played, pick) => {
        const scenario = play(played);
        const cash = scenario.listed
          .map((bet, at) => ({ bet: scenario.ours[bet] as OperatorBet, at }))
          // A winning one: a lost line could as well be a rolled-back free bet's, listed at any stake.
          .filter(({ bet }) => bet.kind === "BET" && bet.status === "won");
        const chosen = cash[pick % Math.max(cash.length, 1)];
        if (!chosen) return;
        const stakes = [...scenario.stakes];
        stakes[chosen.at] = (stakes[chosen.at] as bigint) + 37n; // no bet of ours stakes an odd amount
        const result = reconcileRound(stakes, scenario.coefficients, scenario.ours);
        // Which difference is named can vary: a rolled-back bet (listed as lost, at any stake if it
        // was free) may account for the changed line, and then the line it should have had is named.
        expect(result.status).toBe("mismatch");
        expect(result.differences.length).toBeGreaterThan(0);
      }),
      { numRuns: 1_000 },
    );
  });

  it("a bet dropped from the close, or one added that we never booked, is a mismatch naming it", () => {
    fc.assert(
      fc.property(round, fc.nat(), (played, pick) => {
        const scenario = play(played);
        // A winning bet: a lost one left out is indistinguishable from a rolled-back one left out.
        const live = scenario.listed
          .map((bet, at) => ({ bet: scenario.ours[bet] as OperatorBet, at }))
          .filter(({ bet }) => bet.status === "won");
        const dropped = live[pick % Math.max(live.length, 1)];
        if (dropped) {
          const keep = (_: unknown, at: number) => at !== dropped.at;
          const result = reconcileRound(
            scenario.stakes.filter(keep),
            scenario.coefficients.filter(keep),
            scenario.ours,
          );
          // Named by stake, and by payout up to the milli of rounding either bet may carry.
          expect(result.differences).toEqual([
            {
              kind: "operator_bet_not_in_close",
              providerTxId: expect.any(String),
              stake: Number(dropped.bet.amount),
              payout: expect.any(Number),
            },
          ]);
          const payout = (result.differences[0] as { payout: number }).payout;
          expect(Math.abs(payout - Number(dropped.bet.wonAmount))).toBeLessThanOrEqual(2);
        }
        const added = strangeCoefficient(500n, scenario.ours);
        const result = reconcileRound(
          [...scenario.stakes, 500n],
          [...scenario.coefficients, added],
          scenario.ours,
        );
        expect(result.differences).toEqual([
          {
            kind: "platform_bet_not_found",
            index: scenario.stakes.length,
            stake: 500,
            coefficient: added,
            expectedPayout: Number(expectedPayout(500n, added)),
          },
        ]);
      }),
      { numRuns: 1_000 },
    );
  });
});
