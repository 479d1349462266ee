import { describe, expect, it } from "vitest";
import { betBody, closeRoundBody, settleBody } from "../testing/callback-bodies.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { grantFreeBets } from "../verbs/grant-free-bets.ts";
import { recordedByProviderTx } from "./acknowledgements.ts";

/**
 * What the fault suite's audits and the campaign's checker hold each acknowledged callback to (what
 * was recorded per `provider_tx_id`), read on the ledger as the runtime user, as the tools read it.
 */
const ledger = useTestLedger();

describe("recordedByProviderTx", () => {
  it("names each callback once with what it recorded: a BET's and a WIN's lines, a FREE_BET's bet, a close; a replayed resend adds nothing", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: "ack-round" });
    expect((await sendWithdraw(ledger, bet)).status).toBe(200);
    expect((await sendWithdraw(ledger, bet)).replayed).toBe(true);
    const win = settleBody(player, bet, "WIN", { amount: 2_500 });
    expect((await sendDeposit(ledger, win)).status).toBe(200);
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId, count: 1 } });
    const freeBet = betBody(player, { action: "FREE_BET", amount: 0, action_id: "ack-round" });
    expect((await sendWithdraw(ledger, freeBet)).status).toBe(200);
    const close = closeRoundBody("ack-round", [1_000], [2.5]);
    expect((await sendDeposit(ledger, close)).status).toBe(200);

    const recorded = await recordedByProviderTx(ledger.ctx.db, 1);
    const of = (id: unknown) => recorded.get(String(id));
    expect(of(bet.provider_tx_id)).toMatchObject({
      kind: "BET",
      amount: -1_000n,
      balanceAfter: 9_000n,
      times: 1,
    });
    expect(of(win.provider_tx_id)).toMatchObject({
      kind: "WIN",
      amount: 2_500n,
      balanceAfter: 11_500n,
      times: 1,
    });
    expect(of(freeBet.provider_tx_id)).toEqual({
      kind: "FREE_BET",
      amount: 0n,
      balanceAfter: null,
      times: 1,
    });
    expect(of(close.provider_tx_id)).toEqual({
      kind: "CLOSE_ROUND",
      amount: 0n,
      balanceAfter: null,
      times: 1,
    });
    // Another operator's callbacks are not its.
    expect((await recordedByProviderTx(ledger.ctx.db, 2)).size).toBe(0);
  });
});
