import { createHash } from "node:crypto";
import { maxBalanceMillis } from "@wallet/contracts/money";
import { describe, expect, it } from "vitest";
import { betBody, settleBody } from "../testing/callback-bodies.ts";
import { balance } from "../testing/callback-verbs.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { adjustBalance } from "./adjust-balance.ts";

const ledger = useTestLedger();

/** An operator-API adjustment, as the API hands it to the ledger. */
function adjust(userId: string, amount: number, reference: string) {
  const body = { user_id: userId, amount, reason: "test", reference };
  const bodySha256 = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  return adjustBalance({ ctx: ledger.ctx, input: { tenantId: 1, body, bodySha256 } });
}

/**
 * Issue 19: a balance stays within what JSON carries exactly (2^53 − 1 millis). A credit past it is a
 * 400 that moves nothing and is stored, so the platform's retry gets the same answer instead of the
 * 503 a BIGINT overflow gave on every attempt.
 */
describe("the balance range", () => {
  it("a WIN, a refund or an adjustment past 2^53 − 1 is a stored 400; up to it is credited and read back exactly", async () => {
    const start = maxBalanceMillis;
    const player = await playerWithSession(ledger, { balance: start });
    const first = betBody(player, { amount: 5_000, action_id: "range-1" });
    const second = betBody(player, { amount: 1_000, action_id: "range-2" });
    expect((await sendWithdraw(ledger, first)).status).toBe(200);
    expect((await sendWithdraw(ledger, second)).status).toBe(200);
    // 6,000 below the limit: a win of 6,001 would pass it.
    const over = settleBody(player, second, "WIN", { amount: 6_001 });
    const refused = await sendDeposit(ledger, over);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain("largest balance the wallet keeps");
    expect((await sendDeposit(ledger, over)).raw).toBe(refused.raw);
    // To the limit exactly: credited, and /balance answers it digit for digit.
    const exact = settleBody(player, second, "WIN", {
      amount: 6_000,
      provider_tx_id: `${over.provider_tx_id}-b`,
    });
    expect((await sendDeposit(ledger, exact)).json.data?.new_balance).toBe(Number(maxBalanceMillis));
    const read = await balance({ ctx: ledger.ctx, input: { tenantId: 1, body: { user_id: player.userId } } });
    expect(read.body).toContain(`"amount":${maxBalanceMillis}`);
    // The first bet's refund would pass it now: refused, the bet stays open.
    const refund = await sendDeposit(ledger, settleBody(player, first, "ROLL_BACK"));
    expect(refund.status).toBe(400);
    // An operator's credit too; a debit still works.
    expect((await adjust(player.userId, 1, "range-credit")).status).toBe(400);
    expect((await adjust(player.userId, -1, "range-debit")).status).toBe(200);

    expect(await balanceOf(ledger, player.playerId)).toBe(maxBalanceMillis - 1n);
    expect((await journalOf(ledger, player.playerId)).map((line) => [line.kind, line.amount])).toEqual([
      ["OPENING", start],
      ["BET", -5_000n],
      ["BET", -1_000n],
      ["WIN", 6_000n],
      ["ADJUSTMENT", -1n],
    ]);
  });
});
