import { describe, expect, it } from "vitest";
import {
  DIFFERENCES_LISTED,
  expectedPayout,
  reconcileInTurns,
  reconcileRound,
  summaryText,
} from "./reconcile.ts";

const bet = (providerTxId: string, amount: bigint, wonAmount = 0n, status = "open", kind = "BET") => ({
  providerTxId,
  kind,
  amount,
  wonAmount,
  status,
});

describe("expectedPayout", () => {
  it("pays stake × coefficient in exact decimals, and nothing at 1.00 or below", () => {
    expect(expectedPayout(1_000n, 2.37)).toBe(2_370n);
    expect(expectedPayout(333n, 1.1)).toBe(366n);
    expect(expectedPayout(1_000n, 1)).toBe(0n);
    expect(expectedPayout(1_000n, 0.5)).toBe(0n);
    expect(expectedPayout(1_000n, 0)).toBe(0n);
    expect(expectedPayout(9_000_000_000_000n, 1.5)).toBe(13_500_000_000_000n);
    expect(expectedPayout(2n, 1e21)).toBe(2_000_000_000_000_000_000_000n); // stored before the range existed
  });
});

describe("reconcileRound", () => {
  it("matches the close's bets to ours in any order", () => {
    const ours = [bet("a", 1_000n, 2_370n, "won"), bet("b", 500n), bet("c", 2_000n, 0n, "rolled_back")];
    expect(reconcileRound([500n, 1_000n], [0, 2.37], ours)).toMatchObject({
      status: "matched",
      differences: [],
    });
    // A voided bet may also be listed as a lost bet.
    expect(reconcileRound([2_000n, 500n, 1_000n], [0, 0, 2.37], ours).status).toBe("matched");
  });

  it("tolerates one milli of rounding in a payout", () => {
    expect(reconcileRound([333n], [1.1], [bet("a", 333n, 367n, "won")]).status).toBe("matched");
    expect(reconcileRound([333n], [1.1], [bet("a", 333n, 368n, "won")]).status).toBe("mismatch");
  });

  it("lists bets the close names that we never saw, and ours it left out", () => {
    const result = reconcileRound([700n, 1_000n], [1.5, 0], [bet("ours-1", 1_000n), bet("ours-2", 300n)]);
    expect(result).toEqual({
      status: "mismatch",
      differences: [
        { kind: "platform_bet_not_found", index: 0, stake: 700, coefficient: 1.5, expectedPayout: 1_050 },
        { kind: "operator_bet_not_in_close", providerTxId: "ours-2", stake: 300, payout: 0 },
      ],
      summary: {
        platform_bet_not_found: { count: 1, stake: 700n, payout: 1_050n },
        operator_bet_not_in_close: { count: 1, stake: 300n, payout: 0n },
      },
    });
  });

  it("a payout that disagrees is a mismatch on both sides", () => {
    const result = reconcileRound([1_000n], [3], [bet("a", 1_000n, 2_000n, "won")]);
    expect(result.differences.map((difference) => difference.kind)).toEqual([
      "platform_bet_not_found",
      "operator_bet_not_in_close",
    ]);
  });

  it("matches a free bet by its payout whatever nominal stake the close lists", () => {
    const freeBet = bet("free", 0n, 1_500n, "won", "FREE_BET");
    expect(reconcileRound([1_000n], [1.5], [freeBet]).status).toBe("matched");
    expect(reconcileRound([1_000n], [2], [freeBet]).status).toBe("mismatch");
  });

  it("pairs as a whole: a lost free bet does not take the line of a lost cash bet (the demo's false alarms)", () => {
    const ours = [bet("free", 0n, 0n, "open", "FREE_BET"), bet("cash", 500n)];
    expect(reconcileRound([500n, 1_000n], [0, 0], ours)).toMatchObject({
      status: "matched",
      differences: [],
    });
  });

  it("a rolled-back free bet is listed at its nominal stake, and may be left out", () => {
    const ours = [bet("free", 0n, 0n, "rolled_back", "FREE_BET"), bet("cash", 700n, 0n, "rolled_back")];
    expect(reconcileRound([1_000n, 700n], [0, 0], ours).status).toBe("matched");
    expect(reconcileRound([], [], ours).status).toBe("matched");
  });

  it("a close of 100,000 bets, all ours, is matched (the first-come pairing never finished one)", () => {
    const stakes = Array.from({ length: 100_000 }, (_, i) => BigInt(100 + (i % 50) * 100));
    const ours = stakes.map((stake, i) =>
      bet(`b${i}`, stake, i % 2 ? 2n * stake : 0n, i % 2 ? "won" : "open"),
    );
    const coefficients = stakes.map((_, i) => (i % 2 ? 2 : 0));
    expect(reconcileRound(stakes, coefficients, ours)).toMatchObject({ status: "matched", differences: [] });
  });

  it("a close of 620,000 bets we never saw lists the first 100 differences and counts and sums every one, exactly", () => {
    // Issue 31: the whole list was 20-60 MB of JSON, more than any statement could store.
    const stakes = Array.from({ length: 620_000 }, (_, i) => 1_000_000_000_000n + BigInt(i));
    const coefficients = stakes.map((_, i) => (i % 2 ? 1_000_000 : 0));
    const ours = [bet("ours-1", 5n), bet("ours-2", 7n, 9n, "won")];
    const result = reconcileRound(stakes, coefficients, ours);
    expect(result.status).toBe("mismatch");
    expect(result.differences).toHaveLength(DIFFERENCES_LISTED);
    expect(result.differences[0]).toMatchObject({ kind: "platform_bet_not_found", index: 0 });
    expect(result.differences.at(-1)).toMatchObject({ kind: "platform_bet_not_found", index: 99 });
    const stakeSum = stakes.reduce((sum, stake) => sum + stake, 0n);
    const payoutSum = stakes.reduce((sum, stake, i) => sum + (i % 2 ? stake * 1_000_000n : 0n), 0n);
    expect(result.summary).toEqual({
      platform_bet_not_found: { count: 620_000, stake: stakeSum, payout: payoutSum },
      operator_bet_not_in_close: { count: 2, stake: 12n, payout: 9n },
    });
    // Stored and shown as decimal text: exact far past 2^53.
    expect(JSON.parse(summaryText(result.summary))).toEqual({
      platform_bet_not_found: { count: 620_000, stake: stakeSum.toString(), payout: payoutSum.toString() },
      operator_bet_not_in_close: { count: 2, stake: "12", payout: "9" },
    });
  });
});

describe("reconcileInTurns", () => {
  it("reconciles a close of many slices exactly as reconcileRound, a slice per event-loop turn", async () => {
    const stakes = Array.from({ length: 70_000 }, (_, i) => BigInt(1_000 + (i % 700)));
    const coefficients = stakes.map((_, i) => (i % 3 ? 1.25 : 0));
    const ours = Array.from({ length: 45_000 }, (_, i) =>
      bet(
        `b-${i}`,
        stakes[i] as bigint,
        i % 3 ? ((stakes[i] as bigint) * 125n) / 100n : 0n,
        i % 3 ? "won" : "open",
      ),
    );
    let turns = 0;
    const ticking = setInterval(() => {
      turns += 1;
    }, 0);
    const inTurns = await reconcileInTurns(stakes, coefficients, ours);
    clearInterval(ticking);
    expect(inTurns).toEqual(reconcileRound(stakes, coefficients, ours));
    expect(inTurns.summary.platform_bet_not_found.count).toBe(25_000);
    // The loop turned while it worked: timers ran between its slices.
    expect(turns).toBeGreaterThan(0);
  });
});
