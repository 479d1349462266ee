import { describe, expect, it } from "vitest";
import { betBody, settleBody } from "./testing/callback-bodies.ts";
import { balanceOf, journalOf } from "./testing/ledger-reads.ts";
import { playerWithSession } from "./testing/players.ts";
import { sendDeposit, sendWithdraw } from "./testing/send-callbacks.ts";
import { useTestLedger } from "./testing/test-ledger.ts";

const ledger = useTestLedger();

describe("idempotency on provider_tx_id", () => {
  it("the same key with the same raw body returns the original response byte for byte and debits once", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    const first = await sendWithdraw(ledger, bet);
    // Balance changes in between; the replay must still say what was answered then.
    await sendWithdraw(ledger, betBody(player, { amount: 500 }));
    const retry = await sendWithdraw(ledger, bet);
    expect(retry.status).toBe(200);
    expect(retry.raw).toBe(first.raw);
    expect(retry.replayed).toBe(true);
    expect(retry.json.data?.new_balance).toBe(9_000);
    expect(await balanceOf(ledger, player.playerId)).toBe(8_500n);
    expect(
      (await journalOf(ledger, player.playerId)).filter((row) => row.providerTxId === bet.provider_tx_id),
    ).toHaveLength(1);
  });

  it("the same key with a different body answers 409 carrying the original response, and moves nothing", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    const first = await sendWithdraw(ledger, bet);
    const conflicting = await sendWithdraw(ledger, { ...bet, amount: 2_000 });
    expect(conflicting.status).toBe(409);
    expect(conflicting.json.code).toBe(409);
    expect(conflicting.json.data).toEqual(first.json);
    expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
  });

  it("the same JSON re-serialized (other bytes) is a different body: 409", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000 });
    await sendWithdraw(ledger, bet);
    const spaced = await sendWithdraw(ledger, bet, 1, JSON.stringify(bet, null, 2));
    expect(spaced.status).toBe(409);
    expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
  });

  it("a rejected request is answered the same way on retry, even after the player could afford it", async () => {
    const player = await playerWithSession(ledger, { balance: 1_000n });
    const bet = betBody(player, { amount: 5_000 });
    const first = await sendWithdraw(ledger, bet);
    expect(first.status).toBe(402);
    const earlier = betBody(player, { amount: 500, action_id: "round-0" });
    await sendWithdraw(ledger, earlier);
    await sendDeposit(ledger, settleBody(player, earlier, "WIN", { amount: 50_000 }));
    const retry = await sendWithdraw(ledger, bet);
    expect(retry.status).toBe(402);
    expect(retry.raw).toBe(first.raw);
    expect(await balanceOf(ledger, player.playerId)).toBe(50_500n);
  });

  it("keys are per tenant: the same provider_tx_id under two tenants are two transactions", async () => {
    const one = await playerWithSession(ledger, { tenantId: 1, balance: 10_000n });
    const two = await playerWithSession(ledger, { tenantId: 2, balance: 10_000n });
    const shared = "shared-provider-tx";
    expect((await sendWithdraw(ledger, betBody(one, { provider_tx_id: shared }), 1)).status).toBe(200);
    expect((await sendWithdraw(ledger, betBody(two, { provider_tx_id: shared }), 2)).status).toBe(200);
    expect(await balanceOf(ledger, one.playerId)).toBe(9_000n);
    expect(await balanceOf(ledger, two.playerId)).toBe(9_000n);
  });

  it("keys compare case-sensitively: TX-A and tx-a are different transactions", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    expect((await sendWithdraw(ledger, betBody(player, { provider_tx_id: "CASE-tx" }))).status).toBe(200);
    expect((await sendWithdraw(ledger, betBody(player, { provider_tx_id: "case-TX" }))).status).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(8_000n);
  });

  it("the same BET raced 20 ways debits exactly once and gives 20 equal responses", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 700 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendWithdraw(ledger, bet)));
    expect(new Set(answers.map((answer) => answer.raw)).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
    expect(answers[0]?.json.data?.new_balance).toBe(9_300);
    expect(await balanceOf(ledger, player.playerId)).toBe(9_300n);
    expect((await journalOf(ledger, player.playerId)).filter((row) => row.kind === "BET")).toHaveLength(1);
  });

  it("the same ROLL_BACK raced 20 ways under 20 different ids refunds once", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 2_000 });
    await sendWithdraw(ledger, bet);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => sendDeposit(ledger, settleBody(player, bet, "ROLL_BACK"))),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.raw)).size).toBe(1);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
    expect((await journalOf(ledger, player.playerId)).filter((row) => row.kind === "ROLL_BACK")).toHaveLength(
      1,
    );
  });
});
