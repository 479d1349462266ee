import { tokenHash } from "@wallet/contracts/hash";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { betBody, txId } from "../testing/callback-bodies.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { grantFreeBets } from "./grant-free-bets.ts";

const ledger = useTestLedger();

describe("BET", () => {
  it("debits the stake, journals it and answers the transfer result with the new balance", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 2_500 });
    const answer = await sendWithdraw(ledger, bet);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      code: 200,
      message: "OK",
      data: {
        user_id: player.userId,
        operator_tx_id: expect.any(String),
        provider_tx_id: bet.provider_tx_id,
        new_balance: 7_500,
        currency: "EUR",
      },
    });
    expect(await balanceOf(ledger, player.playerId)).toBe(7_500n);
    const journal = await journalOf(ledger, player.playerId);
    expect(journal.map((row) => [row.kind, row.amount, row.balanceAfter])).toEqual([
      ["OPENING", 10_000n, 10_000n],
      ["BET", -2_500n, 7_500n],
    ]);
    expect(journal[1]?.operatorTxId).toBe(answer.json.data?.operator_tx_id);
  });

  it("answers 402 with the current balance when funds are short, and debits nothing", async () => {
    const player = await playerWithSession(ledger, { balance: 1_000n });
    const answer = await sendWithdraw(ledger, betBody(player, { amount: 1_001 }));
    expect(answer.status).toBe(402);
    expect(answer.json.code).toBe(402);
    expect(answer.json.data).toMatchObject({ balance: 1_000, currency: "EUR", user_id: player.userId });
    expect(await balanceOf(ledger, player.playerId)).toBe(1_000n);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING"]);
  });

  it("a bet of exactly the balance succeeds and leaves zero", async () => {
    const player = await playerWithSession(ledger, { balance: 1_000n });
    const answer = await sendWithdraw(ledger, betBody(player, { amount: 1_000 }));
    expect(answer.json.data?.new_balance).toBe(0);
    expect(await balanceOf(ledger, player.playerId)).toBe(0n);
  });

  it("enforces maxbet over the player's whole stake in the round (400), not per bet", async () => {
    const player = await playerWithSession(ledger, { balance: 100_000n, maxbet: 5_000n });
    expect((await sendWithdraw(ledger, betBody(player, { amount: 3_000, action_id: "r-max" }))).status).toBe(
      200,
    );
    const over = await sendWithdraw(ledger, betBody(player, { amount: 2_001, action_id: "r-max" }));
    expect(over.status).toBe(400);
    expect(over.json.message).toMatch(/maxbet 5000/);
    expect((await sendWithdraw(ledger, betBody(player, { amount: 2_000, action_id: "r-max" }))).status).toBe(
      200,
    );
    // Another round starts from zero.
    expect(
      (await sendWithdraw(ledger, betBody(player, { amount: 5_000, action_id: "r-other" }))).status,
    ).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(100_000n - 3_000n - 2_000n - 5_000n);
  });

  it("enforces minbet per bet (400) and moves nothing", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n, minbet: 500n });
    const under = await sendWithdraw(ledger, betBody(player, { amount: 499 }));
    expect(under.status).toBe(400);
    expect(under.json.message).toMatch(/minbet 500/);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
  });

  it("rejects a zero-stake BET with 400", async () => {
    const player = await playerWithSession(ledger);
    const answer = await sendWithdraw(ledger, betBody(player, { amount: 0 }));
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/more than 0/);
  });

  it("answers 404 for an unknown user, an unknown session and another player's session", async () => {
    const player = await playerWithSession(ledger);
    const other = await playerWithSession(ledger);
    const unknownUser = await sendWithdraw(ledger, betBody(player, { user_id: "nobody" }));
    expect([unknownUser.status, unknownUser.json.message]).toEqual([404, "user nobody not found"]);
    const unknownSession = await sendWithdraw(ledger, betBody(player, { session_token: "no-such-session" }));
    expect([unknownSession.status, unknownSession.json.message]).toEqual([404, "session not found"]);
    const foreign = await sendWithdraw(ledger, betBody(player, { session_token: other.sessionToken }));
    expect(foreign.status).toBe(404);
    expect(await balanceOf(ledger, player.playerId)).toBe(100_000n);
  });

  it("answers 404 when the session has expired", async () => {
    const player = await playerWithSession(ledger);
    await ledger.db.execute(
      sql`UPDATE game_sessions SET expires_at = CURRENT_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE session_token = ${tokenHash(player.sessionToken)}`,
    );
    const answer = await sendWithdraw(ledger, betBody(player));
    expect([answer.status, answer.json.message]).toEqual([404, "session expired"]);
    expect(await balanceOf(ledger, player.playerId)).toBe(100_000n);
  });

  it("answers 400 for a currency the player does not hold", async () => {
    const player = await playerWithSession(ledger);
    const answer = await sendWithdraw(ledger, betBody(player, { currency: "USD" }));
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/USD does not match the player's currency EUR/);
  });

  it("answers 400 naming the field for floats, strings, negatives and unsafe integers", async () => {
    const player = await playerWithSession(ledger);
    const cases: Array<[unknown, RegExp]> = [
      [10.5, /amount: must be an integer number of millis, got 10.5/],
      ["1000", /amount: must be a JSON integer of millis, got string/],
      [-1, /amount: must not be negative, got -1/],
      [2 ** 53, /amount: exceeds 9007199254740991/],
    ];
    for (const [amount, message] of cases) {
      const answer = await sendWithdraw(ledger, betBody(player, { amount }));
      expect(answer.status).toBe(400);
      expect(answer.json.message).toMatch(message);
    }
    expect(await balanceOf(ledger, player.playerId)).toBe(100_000n);
  });

  it("does not let tenant 2 touch tenant 1's player (404, nothing moves)", async () => {
    const player = await playerWithSession(ledger, { tenantId: 1 });
    const answer = await sendWithdraw(ledger, betBody(player), 2);
    expect(answer.status).toBe(404);
    expect(await balanceOf(ledger, player.playerId)).toBe(100_000n);
  });
});

describe("FREE_BET", () => {
  it("consumes one eligible grant, never touches cash, and answers the unchanged balance", async () => {
    const player = await playerWithSession(ledger, { balance: 5_000n });
    await grantFreeBets({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId: player.userId, count: 1, game: "crashGame" },
    });
    const freeBet = betBody(player, {
      action: "FREE_BET",
      amount: 0,
      attributes: [{ name: "bonus", value: "1" }],
    });
    const first = await sendWithdraw(ledger, freeBet);
    expect(first.status).toBe(200);
    expect(first.json.data?.new_balance).toBe(5_000);
    const second = await sendWithdraw(ledger, { ...freeBet, provider_tx_id: txId("free") });
    expect(second.status).toBe(402);
    expect(second.json.message).toMatch(/no free bet available/);
    expect(await balanceOf(ledger, player.playerId)).toBe(5_000n);
    expect((await journalOf(ledger, player.playerId)).map((row) => row.kind)).toEqual(["OPENING"]);
  });

  it("answers 402 without a grant, ignores grants for other games and expired grants", async () => {
    const player = await playerWithSession(ledger);
    const freeBet = () => betBody(player, { action: "FREE_BET", amount: 0 });
    expect((await sendWithdraw(ledger, freeBet())).status).toBe(402);
    await grantFreeBets({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId: player.userId, count: 3, game: "otherGame" },
    });
    await grantFreeBets({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId: player.userId, count: 3, expiresAt: new Date(Date.now() - 60_000) },
    });
    expect((await sendWithdraw(ledger, freeBet())).status).toBe(402);
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 2 } });
    expect((await sendWithdraw(ledger, freeBet())).status).toBe(200);
    expect((await sendWithdraw(ledger, freeBet())).status).toBe(200);
    expect((await sendWithdraw(ledger, freeBet())).status).toBe(402);
  });

  it("rejects a FREE_BET with a non-zero amount (400)", async () => {
    const player = await playerWithSession(ledger);
    const answer = await sendWithdraw(ledger, betBody(player, { action: "FREE_BET", amount: 100 }));
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/amount: must be 0/);
  });
});
