import { describe, expect, it } from "vitest";
import { betBody, closeRoundBody } from "../testing/callback-bodies.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { roundStatus } from "./round-status.ts";

const ledger = useTestLedger();

describe("a round's status names its players", () => {
  it("open and closed: every player with a bet in it, of its operator only", async () => {
    const [a, b] = [await playerWithSession(ledger), await playerWithSession(ledger)];
    const other = await playerWithSession(ledger, { tenantId: 2 });
    for (const player of [a, b]) await sendWithdraw(ledger, betBody(player, { action_id: "named" }));
    await sendWithdraw(ledger, betBody(other, { action_id: "named" }), 2);
    const status = (tenantId: number) =>
      roundStatus({ ctx: ledger.ctx, input: { tenantId, roundId: "named" } });

    expect(await status(1)).toMatchObject({ status: "open", user_ids: [a.userId, b.userId].sort() });
    expect(await status(2)).toMatchObject({ status: "open", user_ids: [other.userId] });
    expect((await sendDeposit(ledger, closeRoundBody("named", [1_000, 1_000], [0, 0]))).status).toBe(200);
    expect(await status(1)).toMatchObject({ status: "closed", user_ids: [a.userId, b.userId].sort() });
  });
});
