import { describe, expect, it } from "vitest";
import type { Operation } from "../history/operation.ts";
import { checkHistory, checkPlayer, type PlayerVerdict } from "./check-history.ts";
import { generatedHistory } from "./generated-history.ts";
import { printPlayerVerdict } from "./print-witness.ts";
import { history, PLAYER, type Spec, startOf } from "./test-histories.ts";

const verdictOf = (specs: Spec[], balance = 1_000n) => {
  const { players } = checkHistory(history(specs), [startOf(balance)]);
  expect(players).toHaveLength(1);
  return players[0];
};

describe("checker rule 1: one player's answered operations admit a linearization", () => {
  it("a sequential valid history passes, with every rule the model keeps", () => {
    const result = verdictOf([
      { kind: "mint-token", status: 201 },
      { kind: "auth", status: 200, balance: 1_000 },
      { kind: "BET", key: "b1", amount: 300, status: 200, balance: 700 },
      { kind: "BET", key: "b1", amount: 300, status: 200, balance: 700 }, // the platform's resend
      { kind: "BET", key: "b1", amount: 301, status: 409 },
      { kind: "WIN", key: "w1", bet: "b1", amount: 0, status: 200, balance: 700 },
      { kind: "WIN", key: "w2", bet: "b1", amount: 500, status: 200, balance: 1_200 },
      { kind: "ROLL_BACK", key: "r1", bet: "b1", amount: 300, status: 400 },
      { kind: "ROLL_BACK", key: "r2", bet: "never-seen", amount: 50, status: 200, balance: 1_200 },
      { kind: "BET", key: "never-seen", amount: 50, status: 200, balance: 1_200 },
      { kind: "FREE_BET", key: "f1", amount: 0, status: 402 },
      { kind: "grant-free-bets", count: 1, status: 201 },
      { kind: "FREE_BET", key: "f2", amount: 0, status: 200, balance: 1_200 },
      { kind: "FREE_BET_WIN", key: "fw1", amount: 250, status: 200, balance: 1_450 },
      { kind: "adjust", key: "cash-1", amount: -450, status: 201, balance: 1_000 },
      { kind: "adjust", key: "cash-1", amount: -450, status: 200, balance: 1_000 },
      { kind: "adjust", key: "cash-2", amount: -5_000, status: 402 },
      { kind: "balance", status: 200, balance: 1_000 },
    ]);
    expect(result).toMatchObject({ verdict: "linearizable", operations: 18 });
    expect(result?.witness).toBeUndefined();
  });

  it("an adjustment whose first send applied and whose resend was answered 200 (replayed) is one application", () => {
    // Seen in a campaign: the operator API killed after the ledger applied the adjustment, the back
    // office's resend answered 200 "replayed" with the balance the first send made.
    const applied = verdictOf([
      { kind: "adjust", key: "a1", amount: 400, status: 200, balance: 1_400 },
      { kind: "balance", status: 200, balance: 1_400 },
    ]);
    expect(applied?.verdict).toBe("linearizable");
    // Its balance is still held to the model: a replay that reports money the wallet never had is not.
    const wrong = verdictOf([
      { kind: "adjust", key: "a1", amount: 400, status: 200, balance: 1_800 },
      { kind: "balance", status: 200, balance: 1_400 },
    ]);
    expect(wrong?.verdict).toBe("violation");
  });

  it.each([
    ["the adjustment first", 1_500],
    ["the BET first", 1_500],
  ])("an operator adjustment overlapping a BET passes with %s", (_order, final) => {
    // Both overlap in time; what each reported tells the order the wallet took.
    const adjustFirst = _order === "the adjustment first";
    const result = verdictOf([
      {
        kind: "adjust",
        key: "a1",
        amount: 1_000,
        status: 201,
        balance: adjustFirst ? 2_000 : 1_500,
        at: [0, 50],
      },
      { kind: "BET", key: "b1", amount: 500, status: 200, balance: adjustFirst ? 1_500 : 500, at: [10, 20] },
      { kind: "balance", status: 200, balance: final, at: [60, 70] },
    ]);
    expect(result?.verdict).toBe("linearizable");
  });

  it("a double debit (a later balance lower by twice the bet) is a violation", () => {
    const result = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 200, balance: 900 },
      { kind: "balance", status: 200, balance: 800 },
    ]);
    expect(result?.verdict).toBe("violation");
    expect(result?.witness?.operations.map((operation) => operation.kind)).toEqual(["balance"]);
    expect(result?.witness?.start.balance).toBe(900n);
    expect(printPlayerVerdict(result as PlayerVerdict).split("\n")).toEqual([
      "player 1/player-1: violation (2 operations, 2 model steps)",
      "start: balance 900, free bets 0 (after the first 1 of a 2-operation failing prefix)",
      "+0..5ms          #1      balance         → 200 balance=800",
    ]);
  });

  it("a missing journal line (a later balance off by one bet) is a violation", () => {
    const result = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 200, balance: 900 },
      { kind: "BET", key: "b2", amount: 100, status: 200, balance: 800 },
      { kind: "WIN", key: "w1", bet: "b2", amount: 50, status: 200, balance: 950 },
    ]);
    expect(result?.verdict).toBe("violation");
    expect(result?.witness?.operations.map((operation) => operation.key)).toEqual(["w1"]);
  });

  it("a /balance read that misses a BET completed before it began is stale: a violation; overlapping, it passes", () => {
    const stale = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 200, balance: 900, at: [0, 10] },
      { kind: "balance", status: 200, balance: 1_000, at: [11, 20] },
    ]);
    expect(stale?.verdict).toBe("violation");
    const concurrent = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 200, balance: 900, at: [0, 10] },
      { kind: "balance", status: 200, balance: 1_000, at: [10, 20] },
    ]);
    expect(concurrent?.verdict).toBe("linearizable");
  });

  it.each([
    ["happened", 800],
    ["did not happen", 900],
  ])("an unanswered BET that %s passes", (_case, after) => {
    const result = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 200, balance: 900 },
      { kind: "BET", key: "b2", amount: 100, status: 0, at: [20, null] },
      { kind: "balance", status: 200, balance: after, at: [100, 110] },
      { kind: "balance", status: 200, balance: after, at: [120, 130] },
    ]);
    expect(result?.verdict).toBe("linearizable");
  });

  it("two unanswered BETs that both happened, back to back, pass (the full search, past the first pass)", () => {
    const result = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 0, at: [0, null] },
      { kind: "BET", key: "b2", amount: 200, status: 503, at: [10, 40] },
      { kind: "balance", status: 200, balance: 700, at: [50, 60] },
    ]);
    expect(result?.verdict).toBe("linearizable");
  });

  it("an unanswered BET (5xx after every attempt) whose effect appears twice is a violation", () => {
    const result = verdictOf([
      { kind: "BET", key: "b1", amount: 100, status: 503, at: [0, 40] },
      { kind: "balance", status: 200, balance: 800, at: [50, 60] },
    ]);
    expect(result?.verdict).toBe("violation");
  });

  it("a 200 where the model says 402 (a BET beyond the balance) is a violation", () => {
    const result = verdictOf([{ kind: "BET", key: "b1", amount: 1_500, status: 200, balance: 0 }]);
    expect(result?.verdict).toBe("violation");
    expect(result?.witness?.operations.map((operation) => operation.id)).toEqual([0]);
  });

  it("a replayed refusal stays a refusal, even once the player could afford the bet", () => {
    const specs: Spec[] = [
      { kind: "BET", key: "b1", amount: 1_500, status: 402 },
      { kind: "adjust", key: "a1", amount: 5_000, status: 201, balance: 6_000 },
      { kind: "BET", key: "b1", amount: 1_500, status: 402 },
    ];
    expect(verdictOf(specs)?.verdict).toBe("linearizable");
    const flipped = verdictOf([...specs.slice(0, 2), { ...(specs[2] as Spec), status: 200, balance: 4_500 }]);
    expect(flipped?.verdict).toBe("violation");
  });

  it("a player past the step budget is unknown, never a pass or a violation", () => {
    const { operations, start } = generatedHistory(7, 200);
    const result = checkPlayer(PLAYER.operatorId, PLAYER.userId, operations, start, { stepBudget: 50 });
    expect(result).toMatchObject({ verdict: "unknown", steps: 50 });
    const { unknown, violations } = checkHistory(operations, [], {});
    expect(unknown.map((player) => player.reason)).toEqual(["no PlayerStart for this player"]);
    expect(violations).toEqual([]);
  });

  it("closes name no player and are left out; players are checked apart", () => {
    const mine = history([{ kind: "BET", key: "b1", amount: 100, status: 200, balance: 900 }]);
    const close: Operation = {
      ...(mine[0] as Operation),
      id: 1,
      kind: "CLOSE_ROUND",
      userId: null,
      balance: null,
    };
    const other: Operation = { ...(mine[0] as Operation), id: 2, userId: "player-2", balance: 1_900 };
    const result = checkHistory(
      [...mine, close, other],
      [startOf(1_000n), startOf(2_000n, { userId: "player-2" })],
    );
    expect(result.players.map((player) => [player.userId, player.verdict])).toEqual([
      ["player-1", "linearizable"],
      ["player-2", "linearizable"],
    ]);
  });

  it("a generated 2,000-operation history with overlapping adjustments and unanswered BETs passes in few steps", () => {
    const { operations, start } = generatedHistory(2_026, 2_000);
    const unanswered = operations.filter((operation) => operation.status === 0 || operation.status >= 500);
    const overlapping = operations.filter((operation, index) => {
      const next = operations[index + 1];
      return next !== undefined && operation.completedAt !== null && operation.completedAt > next.invokedAt;
    });
    expect(unanswered.length).toBeGreaterThanOrEqual(10);
    expect(overlapping.length).toBeGreaterThanOrEqual(200);
    const began = performance.now();
    const result = checkHistory(operations, [start]);
    const elapsed = performance.now() - began;
    console.log(`[checker] 2,000 operations: ${result.players[0]?.steps} steps, ${elapsed.toFixed(0)} ms`);
    expect(result.players[0]).toMatchObject({ verdict: "linearizable", operations: 2_000 });
    // The search stays near one step an operation (a timing would be a benchmark, not a test).
    expect(result.players[0]?.steps).toBeLessThan(20_000);
  });
});
