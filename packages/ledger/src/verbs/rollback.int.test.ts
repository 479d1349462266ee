import { describe, expect, it } from "vitest";
import { betBody, settleBody } from "../testing/callback-bodies.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { grantFreeBets } from "./grant-free-bets.ts";

const ledger = useTestLedger();

describe("ROLL_BACK", () => {
  it("refunds the original bet's amount and answers like a WIN", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 3_000 });
    await sendWithdraw(ledger, bet);
    const rollback = settleBody(player, bet, "ROLL_BACK");
    const answer = await sendDeposit(ledger, rollback);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({
      user_id: player.userId,
      operator_tx_id: expect.any(String),
      provider_tx_id: rollback.provider_tx_id,
      new_balance: 10_000,
      currency: "EUR",
    });
    const journal = await journalOf(ledger, player.playerId);
    expect(journal.map((row) => [row.kind, row.amount, row.balanceAfter])).toEqual([
      ["OPENING", 10_000n, 10_000n],
      ["BET", -3_000n, 7_000n],
      ["ROLL_BACK", 3_000n, 10_000n],
    ]);
  });

  it("a second ROLL_BACK of the same bet under a new provider_tx_id returns the first rollback's response and credits nothing", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 3_000 });
    await sendWithdraw(ledger, bet);
    const first = await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"));
    const second = await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"));
    expect(second.status).toBe(200);
    expect(second.raw).toBe(first.raw);
    // The second id is now a key of its own: its retry replays the same bytes.
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
    expect((await journalOf(ledger, player.playerId)).filter((row) => row.kind === "ROLL_BACK")).toHaveLength(
      1,
    );
  });

  it("refunds what the bet took when the rollback names another amount, and marks the line", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 3_000 });
    await sendWithdraw(ledger, bet);
    const answer = await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK", { amount: 3_001 }));
    expect(answer.status).toBe(200);
    expect(answer.json.data?.new_balance).toBe(10_000);
    const [line] = (await journalOf(ledger, player.playerId)).filter((row) => row.kind === "ROLL_BACK");
    expect(line).toMatchObject({ amount: 3_000n, anomaly: "rollback_amount_differs" });
  });

  it("answers 400 for a bet that already has a WIN", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 3_000 });
    await sendWithdraw(ledger, bet);
    await sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 6_000 }));
    const answer = await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"));
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/already has a WIN/);
    expect(await balanceOf(ledger, player.playerId)).toBe(13_000n);
  });

  it("a ROLL_BACK for an unknown bet answers 200 with no credit, and the late BET moves no money", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 3_000 });
    const rollback = await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"));
    expect(rollback.status).toBe(200);
    expect(rollback.json.data?.new_balance).toBe(10_000);
    const late = await sendWithdraw(ledger, bet);
    expect(late.status).toBe(200);
    expect(late.json.data?.new_balance).toBe(10_000);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING"]);
    // A second rollback of that bet replays the first one.
    const again = await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"));
    expect(again.raw).toBe(rollback.raw);
    // And no WIN can follow the voided bet.
    expect((await sendDeposit(ledger, settleBody(player, bet, "WIN"))).status).toBe(400);
  });

  it("answers 400 for a rollback naming another player's bet", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const other = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 3_000 });
    await sendWithdraw(ledger, bet);
    const answer = await sendDeposit(ledger, settleBody(other, bet, "ROLL_BACK"));
    expect(answer.status).toBe(400);
    expect(await balanceOf(ledger, other.playerId)).toBe(10_000n);
    expect(await balanceOf(ledger, player.playerId)).toBe(7_000n);
  });

  it("rolling back a FREE_BET gives the free bet back and moves no cash", async () => {
    const player = await playerWithSession(ledger, { balance: 500n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 1 } });
    const freeBet = betBody(player, { action: "FREE_BET", amount: 0 });
    await sendWithdraw(ledger, freeBet);
    const answer = await sendDeposit(ledger, settleBody(player, freeBet, "ROLL_BACK"));
    expect(answer.status).toBe(200);
    expect(answer.json.data?.new_balance).toBe(500);
    expect((await sendWithdraw(ledger, betBody(player, { action: "FREE_BET", amount: 0 }))).status).toBe(200);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING"]);
  });

  it("a tombstone is its player's: another player's BET or FREE_BET under its id is a 409 that moves nothing, stored", async () => {
    const owner = await playerWithSession(ledger, { balance: 10_000n });
    const stranger = await playerWithSession(ledger, { balance: 10_000n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: stranger.userId, count: 1 } });
    for (const action of ["BET", "FREE_BET"] as const) {
      const amount = action === "BET" ? 2_000 : 0;
      // The owner's ROLL_BACK arrives before the bet it names: a tombstone, 200, no credit.
      const lost = betBody(owner, { amount, action });
      expect((await sendDeposit(ledger, settleBody(owner, lost, "ROLL_BACK"))).status).toBe(200);
      // Another player's bet under the tombstoned id: not a free pass.
      const theirs = { ...betBody(stranger, { amount, action }), provider_tx_id: lost.provider_tx_id };
      const answer = await sendWithdraw(ledger, theirs);
      expect(answer.status).toBe(409);
      expect(answer.json.message).toContain("rolled back for another player");
      expect((await sendWithdraw(ledger, theirs)).raw).toBe(answer.raw);
      // The id is answered now (every answer is stored): the owner's own late bet is a conflict
      // with it, and moves nothing either.
      expect((await sendWithdraw(ledger, lost)).status).toBe(409);
    }
    expect(await balanceOf(ledger, stranger.playerId)).toBe(10_000n);
    expect(await balanceOf(ledger, owner.playerId)).toBe(10_000n);
    expect((await journalOf(ledger, stranger.playerId)).map((line) => line.kind)).toEqual(["OPENING"]);
  });
});
