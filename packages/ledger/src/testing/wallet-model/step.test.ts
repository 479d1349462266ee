import { describe, expect, it } from "vitest";
import type { WalletAnswer, WalletCommand } from "./commands.ts";
import { openWallet, type WalletOpening, type WalletState, walletFingerprint } from "./state.ts";
import { stepWallet } from "./step.ts";

type BetCommand = Extract<WalletCommand, { kind: "BET" }>;

const bet = (key: string, amount: bigint, round = "r1"): BetCommand => ({
  kind: "BET",
  key,
  body: `${key}:${amount}:${round}`,
  round,
  amount,
  currency: "EUR",
});
const freeBet = (key: string, round = "r1", amount = 0n): WalletCommand => ({
  ...bet(key, amount, round),
  kind: "FREE_BET",
});
const settle = (
  kind: "WIN" | "FREE_BET_WIN" | "ROLL_BACK",
  key: string,
  betKey: string | null,
  amount: bigint,
  round = "r1",
): WalletCommand =>
  kind === "ROLL_BACK"
    ? { kind, key, body: `${key}:${betKey}:${amount}`, round, amount, betKey: betKey ?? "", currency: "EUR" }
    : { kind, key, body: `${key}:${betKey}:${amount}`, round, amount, betKey, currency: "EUR" };
const adjust = (reference: string, amount: bigint, reason = "cashier"): WalletCommand => ({
  kind: "adjust",
  reference,
  amount,
  body: `${amount}:${reason}`,
});

/** Runs commands in order; returns each answer as "status balance" and the final state. */
function run(commands: WalletCommand[], opening: Partial<WalletOpening> = {}) {
  let state: WalletState = openWallet({ balance: 1_000n, maxbet: 5_000n, currency: "EUR", ...opening });
  const answers = commands.map((command) => {
    const step = stepWallet(state, command);
    state = step.state;
    return show(step.answer);
  });
  return { answers, state };
}
const show = (answer: WalletAnswer) => `${answer.status} ${answer.balance ?? "-"}`;

describe("the wallet model (docs/contract.md, one player)", () => {
  it("BET: more than 0, at least minbet, maxbet caps the round's total stake, 402 reports the balance", () => {
    const { answers } = run(
      [
        bet("a", 0n),
        bet("b", 50n),
        bet("c", 600n),
        bet("d", 500n),
        bet("e", 500n, "r2"),
        bet("f", 2_000n, "r3"),
      ],
      { minbet: 100n, maxbet: 1_000n },
    );
    expect(answers).toEqual(["400 -", "400 -", "200 400", "400 -", "402 400", "400 -"]);
  });

  it("a refused BET is stored: the same bytes get it again, other bytes a 409, even once affordable", () => {
    const { answers, state } = run([
      bet("a", 1_500n),
      adjust("cash", 1_000n),
      bet("a", 1_500n),
      bet("a", 1_000n),
    ]);
    expect(answers).toEqual(["402 1000", "201 2000", "402 1000", "409 -"]);
    expect(state.balance).toBe(2_000n);
  });

  it("FREE_BET uses a grant (402 with none), moves no cash; amount must be 0 and that refusal is not stored", () => {
    const { answers, state } = run(
      [
        freeBet("f0"),
        { kind: "grant-free-bets", count: 1 },
        freeBet("f1", "r1", 5n),
        freeBet("f1"),
        freeBet("f2"),
      ],
      {},
    );
    expect(answers).toEqual(["402 1000", "201 -", "400 -", "200 1000", "402 1000"]);
    expect(state.freeBets).toBe(0);
  });

  it("WIN settles a BET of the same round, not rolled back; a second WIN is booked; a WIN of 0 moves nothing", () => {
    const { answers } = run([
      bet("b", 100n),
      settle("WIN", "w0", "b", 0n),
      settle("WIN", "w1", "b", 300n),
      settle("WIN", "w2", "b", 300n),
      settle("WIN", "w3", "b", 1n, "r2"),
      settle("WIN", "w4", "unknown", 1n),
      settle("WIN", "w5", null, 1n),
    ]);
    expect(answers).toEqual(["200 900", "200 900", "200 1200", "200 1500", "400 -", "400 -", "400 -"]);
  });

  it("FREE_BET_WIN settles a FREE_BET (the round's when no bet is named) with real money; WIN of a FREE_BET is a 400", () => {
    const { answers } = run(
      [
        freeBet("f1"),
        settle("WIN", "w1", "f1", 100n),
        settle("FREE_BET_WIN", "fw1", null, 250n),
        settle("FREE_BET_WIN", "fw2", null, 250n, "r2"),
        bet("b", 100n),
        settle("FREE_BET_WIN", "fw3", "b", 250n),
      ],
      { freeBets: 1 },
    );
    expect(answers).toEqual(["200 1000", "400 -", "200 1250", "400 -", "200 1150", "400 -"]);
  });

  it("ROLL_BACK refunds once, later ones get the first answer; a FREE_BET's gives the grant back; a won bet is a 400", () => {
    const { answers, state } = run(
      [
        bet("b", 300n),
        settle("ROLL_BACK", "r1", "b", 999n),
        adjust("cash", 100n),
        settle("ROLL_BACK", "r2", "b", 300n),
        freeBet("f"),
        settle("ROLL_BACK", "r3", "f", 0n),
        bet("won", 100n),
        settle("WIN", "w", "won", 0n),
        settle("ROLL_BACK", "r4", "won", 100n),
      ],
      { freeBets: 1 },
    );
    expect(answers).toEqual([
      "200 700",
      "200 1000",
      "201 1100",
      "200 1000",
      "200 1100",
      "200 1100",
      "200 1000",
      "200 1000",
      "400 -",
    ]);
    expect(state.freeBets).toBe(1);
  });

  it("a rollback of an unknown bet is a tombstone: 200, no credit, and the late bet moves nothing", () => {
    const { answers } = run([
      settle("ROLL_BACK", "r1", "late", 300n),
      bet("late", 300n),
      settle("ROLL_BACK", "r2", "late", 300n),
      settle("WIN", "w", "late", 300n),
    ]);
    expect(answers).toEqual(["200 1000", "200 1000", "200 1000", "400 -"]);
  });

  it("a rolled-back BET frees its stake under maxbet", () => {
    const { answers } = run(
      [bet("a", 800n), bet("b", 300n), settle("ROLL_BACK", "r", "a", 800n), bet("c", 300n)],
      {
        maxbet: 1_000n,
      },
    );
    expect(answers).toEqual(["200 200", "400 -", "200 1000", "200 700"]);
  });

  it("credits past 2^53 − 1 are refused (stored) and move nothing; a debit adjustment beyond the balance is a 402", () => {
    const top = 2n ** 53n - 1n;
    const { answers, state } = run(
      [
        bet("b", 10n),
        settle("WIN", "w", "b", 21n),
        adjust("up", 21n),
        adjust("down", -top),
        adjust("up", 21n),
      ],
      { balance: top - 10n },
    );
    expect(answers).toEqual([`200 ${top - 20n}`, "400 -", "400 -", `402 ${top - 20n}`, "400 -"]);
    expect(state.balance).toBe(top - 20n);
  });

  it("adjustments: 201 applied, 200 replayed with the first balance, 409 for the reference with another body", () => {
    const { answers } = run([
      adjust("a", 100n),
      bet("b", 100n),
      adjust("a", 100n),
      adjust("a", 100n, "other"),
    ]);
    expect(answers).toEqual(["201 1100", "200 1000", "200 1100", "409 -"]);
  });

  it("another currency is a stored 400; /auth refuses a token the history revoked (404) and takes one it never saw", () => {
    const { answers } = run([
      { ...bet("b", 100n), currency: "USD" },
      { ...bet("b", 100n), currency: "USD" },
      { kind: "auth", token: "never-minted", currency: "EUR" },
      { kind: "revoke-token", token: "t1" },
      { kind: "auth", token: "t1", currency: "EUR" },
      { kind: "balance", currency: null },
    ]);
    expect(answers).toEqual(["400 -", "400 -", "200 1000", "200 -", "404 -", "200 1000"]);
  });

  it("states are immutable, and two paths to the same wallet have the same fingerprint", () => {
    const opening = openWallet({ balance: 1_000n, maxbet: 5_000n });
    // Two tombstones: neither moves money, so either order stores the same answers.
    const x = settle("ROLL_BACK", "rx", "x", 5n);
    const y = settle("ROLL_BACK", "ry", "y", 7n);
    const first = stepWallet(stepWallet(opening, x).state, y).state;
    const second = stepWallet(stepWallet(opening, y).state, x).state;
    expect(opening.balance).toBe(1_000n);
    expect(walletFingerprint(first)).toBe(walletFingerprint(second));
    expect(walletFingerprint(first)).not.toBe(walletFingerprint(stepWallet(first, bet("b", 1n)).state));
  });
});
