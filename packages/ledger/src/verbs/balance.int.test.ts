import { describe, expect, it } from "vitest";
import { betBody } from "../testing/callback-bodies.ts";
import { balance } from "../testing/callback-verbs.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";

const ledger = useTestLedger();

async function ask(body: Record<string, unknown>, tenantId = 1) {
  const outcome = await balance({ ctx: ledger.ctx, input: { tenantId, body } });
  return { status: outcome.status, json: JSON.parse(outcome.body) };
}

describe("/balance", () => {
  it("answers currency and amount by user_id and by session_token, after a bet", async () => {
    const player = await playerWithSession(ledger, { balance: 9_999n });
    await sendWithdraw(ledger, betBody(player, { amount: 999 }));
    const expected = {
      status: 200,
      json: { code: 200, message: "OK", data: { user_id: player.userId, currency: "EUR", amount: 9_000 } },
    };
    expect(await ask({ user_id: player.userId, currency: "EUR" })).toEqual(expected);
    expect(await ask({ session_token: player.sessionToken })).toEqual(expected);
  });

  it("answers 404 for an unknown player or session, or a session of another player", async () => {
    const player = await playerWithSession(ledger);
    const other = await playerWithSession(ledger);
    expect((await ask({ user_id: "ghost" })).status).toBe(404);
    expect((await ask({ session_token: "ghost-session" })).status).toBe(404);
    expect((await ask({ user_id: player.userId, session_token: other.sessionToken })).status).toBe(404);
    expect((await ask({ user_id: player.userId }, 2)).status).toBe(404);
  });

  it("answers 400 without any player reference and for a currency the player does not hold", async () => {
    const player = await playerWithSession(ledger);
    expect(await ask({})).toMatchObject({
      status: 400,
      json: { message: "user_id or session_token is required" },
    });
    expect((await ask({ user_id: player.userId, currency: "GBP" })).status).toBe(400);
  });
});
