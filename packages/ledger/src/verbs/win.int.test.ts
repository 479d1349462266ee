import { tokenHash } from "@wallet/contracts/hash";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bets } from "../schema/bets.ts";
import { betBody, settleBody } from "../testing/callback-bodies.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { grantFreeBets } from "./grant-free-bets.ts";

const ledger = useTestLedger();

describe("WIN", () => {
  it("credits the win, journals it against the bet and answers the new balance", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    await sendWithdraw(ledger, bet);
    const win = settleBody(player, bet, "WIN", {
      amount: 2_500,
      attributes: [{ name: "coefficient", value: "2.5" }],
    });
    const answer = await sendDeposit(ledger, win);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({
      user_id: player.userId,
      operator_tx_id: expect.any(String),
      provider_tx_id: win.provider_tx_id,
      new_balance: 11_500,
      currency: "EUR",
    });
    expect(await balanceOf(ledger, player.playerId)).toBe(11_500n);
    const journal = await journalOf(ledger, player.playerId);
    expect(journal.map((row) => [row.kind, row.amount, row.balanceAfter])).toEqual([
      ["OPENING", 10_000n, 10_000n],
      ["BET", -1_000n, 9_000n],
      ["WIN", 2_500n, 11_500n],
    ]);
  });

  it("is accepted after the session expired", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    await sendWithdraw(ledger, bet);
    await ledger.db.execute(
      sql`UPDATE game_sessions SET expires_at = CURRENT_TIMESTAMP(3) - INTERVAL 1 HOUR WHERE session_token = ${tokenHash(player.sessionToken)}`,
    );
    expect((await sendWithdraw(ledger, betBody(player))).status).toBe(404);
    const answer = await sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 3_000 }));
    expect(answer.status).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(12_000n);
  });

  it("answers 400 for a win of an unknown bet, another player's bet, another round or a rolled-back bet", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const other = await playerWithSession(ledger);
    const bet = betBody(player, { amount: 1_000 });
    await sendWithdraw(ledger, bet);

    const unknown = await sendDeposit(
      ledger,
      settleBody(player, { ...bet, provider_tx_id: "never-seen" }, "WIN"),
    );
    expect([unknown.status, unknown.json.message]).toEqual([
      400,
      `withdraw_provider_tx_id: bet never-seen is unknown (action_id ${JSON.stringify(bet.action_id)}, user_id ${JSON.stringify(player.userId)})`,
    ]);
    const foreign = await sendDeposit(ledger, settleBody(other, bet, "WIN"));
    expect(foreign.status).toBe(400);
    expect(foreign.json.message).toMatch(/belongs to another player/);
    const wrongRound = await sendDeposit(ledger, settleBody(player, bet, "WIN", { action_id: "elsewhere" }));
    expect(wrongRound.status).toBe(400);
    expect(wrongRound.json.message).toMatch(/was placed in round/);

    await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"));
    const afterRefund = await sendDeposit(ledger, settleBody(player, bet, "WIN"));
    expect(afterRefund.status).toBe(400);
    expect(afterRefund.json.message).toMatch(/was rolled back/);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
    expect(await balanceOf(ledger, other.playerId)).toBe(100_000n);
  });

  it("requires withdraw_provider_tx_id on WIN (400)", async () => {
    const player = await playerWithSession(ledger);
    const bet = betBody(player);
    const { withdraw_provider_tx_id: _omit, ...win } = settleBody(player, bet, "WIN");
    const answer = await sendDeposit(ledger, win);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/withdraw_provider_tx_id: is required/);
  });

  it("a WIN of 0 settles the bet without a journal line", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    await sendWithdraw(ledger, bet);
    const answer = await sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 0 }));
    expect(answer.json.data?.new_balance).toBe(9_000);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING", "BET"]);
    // The bet now has a WIN, so it can no longer be rolled back.
    expect((await sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"))).status).toBe(400);
  });
});

describe("FREE_BET_WIN", () => {
  it("credits real money for a free bet's win", async () => {
    const player = await playerWithSession(ledger, { balance: 0n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 1 } });
    const freeBet = betBody(player, { action: "FREE_BET", amount: 0 });
    expect((await sendWithdraw(ledger, freeBet)).status).toBe(200);
    const win = settleBody(player, freeBet, "FREE_BET_WIN", { amount: 4_200 });
    const answer = await sendDeposit(ledger, win);
    expect(answer.status).toBe(200);
    expect(answer.json.data?.new_balance).toBe(4_200);
    const journal = await journalOf(ledger, player.playerId);
    expect(journal.map((row) => [row.kind, row.amount])).toEqual([["FREE_BET_WIN", 4_200n]]);
  });

  it("answers 400 when it names a real-money BET, and WIN answers 400 for a FREE_BET", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 1 } });
    const bet = betBody(player, { amount: 1_000 });
    const freeBet = betBody(player, { action: "FREE_BET", amount: 0 });
    await sendWithdraw(ledger, bet);
    await sendWithdraw(ledger, freeBet);
    expect((await sendDeposit(ledger, settleBody(player, bet, "FREE_BET_WIN"))).status).toBe(400);
    expect((await sendDeposit(ledger, settleBody(player, freeBet, "WIN"))).status).toBe(400);
    expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
  });

  it("without withdraw_provider_tx_id it settles the player's FREE_BET in that round, once per free bet", async () => {
    const player = await playerWithSession(ledger, { balance: 0n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 1 } });
    const freeBet = betBody(player, { action: "FREE_BET", amount: 0, action_id: "free-round-1" });
    expect((await sendWithdraw(ledger, freeBet)).status).toBe(200);
    const win = {
      ...settleBody(player, freeBet, "FREE_BET_WIN", { amount: 1_500 }),
      withdraw_provider_tx_id: undefined,
    };
    const answer = await sendDeposit(ledger, win);
    expect(answer.status).toBe(200);
    expect(answer.json.data?.new_balance).toBe(1_500);
    const [settled] = await ledger.db.select().from(bets).where(eq(bets.playerId, player.playerId));
    expect(settled).toMatchObject({ providerTxId: freeBet.provider_tx_id, status: "won", wonAmount: 1_500n });
  });

  it("without withdraw_provider_tx_id and no FREE_BET of the player in the round: 400, nothing credited", async () => {
    const player = await playerWithSession(ledger, { balance: 5_000n });
    const other = await playerWithSession(ledger, { balance: 0n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: other.userId, count: 1 } });
    // Another player's free bet in the round, and this player's cash bet: neither is a free bet of theirs.
    await sendWithdraw(ledger, betBody(other, { action: "FREE_BET", amount: 0, action_id: "free-round-2" }));
    const cash = betBody(player, { amount: 1_000, action_id: "free-round-2" });
    await sendWithdraw(ledger, cash);
    const win = {
      ...settleBody(player, cash, "FREE_BET_WIN", { amount: 777_777 }),
      withdraw_provider_tx_id: undefined,
    };
    const answer = await sendDeposit(ledger, win);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe(
      `FREE_BET_WIN names no withdraw_provider_tx_id and user ${player.userId} has no FREE_BET in round free-round-2`,
    );
    expect(await balanceOf(ledger, player.playerId)).toBe(4_000n);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING", "BET"]);
    // The refusal is stored: the same request gets the same answer.
    expect((await sendDeposit(ledger, win)).raw).toBe(answer.raw);
  });
});
