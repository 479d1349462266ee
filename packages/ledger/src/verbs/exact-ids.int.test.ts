import { tokenHash } from "@wallet/contracts/hash";
import { longestUserIds } from "@wallet/contracts/testing/longest-user-ids";
import { userIdMax, userTokenMax } from "@wallet/contracts/user-token";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { betBody } from "../testing/callback-bodies.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { authenticate } from "./authenticate.ts";
import { createPlayer } from "./create-player.ts";
import { mintUserToken } from "./mint-user-token.ts";

const ledger = useTestLedger();

const auth = (body: Record<string, unknown>) =>
  authenticate({ ctx: ledger.ctx, input: { tenantId: 1, body } });

/** Issue 19: ids compare byte for byte, look-alikes are refused, and every id the API takes fits. */
describe("exact ids", () => {
  it("a user_id with a trailing space is another player: 404, the player is not debited", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const answer = await sendWithdraw(ledger, betBody(player, { user_id: `${player.userId}   ` }));
    expect(answer.status).toBe(404);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
  });

  it("provider_tx_id `X` and `X ` are two transactions, each booked once", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const first = betBody(player, { amount: 1_000 });
    const second = { ...first, provider_tx_id: `${String(first.provider_tx_id)} `, amount: 2_000 };
    expect((await sendWithdraw(ledger, first)).status).toBe(200);
    const answer = await sendWithdraw(ledger, second);
    expect(answer.status).toBe(200);
    expect(answer.json.data?.provider_tx_id).toBe(second.provider_tx_id);
    expect(await balanceOf(ledger, player.playerId)).toBe(7_000n);
    expect((await journalOf(ledger, player.playerId)).map((line) => line.providerTxId)).toEqual([
      null,
      first.provider_tx_id,
      second.provider_tx_id,
    ]);
  });

  it("an empty or whitespace-only id or token is refused (400) and binds nothing", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const { userToken } = await mintUserToken({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId: player.userId, ttlSeconds: 60 },
    });
    for (const sessionToken of ["   ", "\t\n", ""]) {
      const answer = await auth({ user_token: userToken, session_token: sessionToken, currency: "EUR" });
      expect(answer.status).toBe(400);
    }
    const bet = await sendWithdraw(ledger, betBody(player, { provider_tx_id: "  " }));
    expect({ status: bet.status, message: bet.json.message }).toEqual({
      status: 400,
      message: "provider_tx_id: must not be only whitespace",
    });
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
  });

  for (const [kind, userId] of Object.entries(longestUserIds)) {
    it(`the longest ${kind} user_id (${userIdMax} code points) is created, minted a token, authenticated and debited`, async () => {
      const { playerId } = await createPlayer({
        ctx: ledger.ctx,
        input: { tenantId: 1, userId, username: "wide", currency: "EUR", balance: 5_000n, maxbet: 10_000n },
      });
      // The column holds the id whole: its UTF-8 bytes unchanged, as many characters as code points.
      const [stored] = (await ledger.db.execute(
        sql`SELECT user_id, LENGTH(user_id) AS bytes, CHAR_LENGTH(CONVERT(user_id USING utf8mb4)) AS chars FROM players WHERE id = ${playerId}`,
      )) as unknown as [Array<{ user_id: string; bytes: number; chars: number }>];
      expect(stored.map((row) => [row.user_id, Number(row.bytes), Number(row.chars)])).toEqual([
        [userId, Buffer.byteLength(userId), userIdMax],
      ]);
      const { userToken } = await mintUserToken({
        ctx: ledger.ctx,
        input: { tenantId: 1, userId, ttlSeconds: 60 },
      });
      const sessionToken = `séssion-${playerId}-${"é".repeat(200)}`;
      const bound = await auth({ user_token: userToken, session_token: sessionToken, currency: "EUR" });
      expect({ status: bound.status, body: JSON.parse(bound.body) }).toMatchObject({
        status: 200,
        body: {
          code: 200,
          message: "OK",
          data: { user_id: userId, username: "wide", balance: 5_000, currency: "EUR" },
        },
      });
      expect(userToken.length).toBeLessThanOrEqual(userTokenMax);
      const player = { tenantId: 1, userId, playerId, sessionToken, currency: "EUR" };
      expect((await sendWithdraw(ledger, betBody(player, { amount: 1_000 }))).status).toBe(200);
      expect(await balanceOf(ledger, playerId)).toBe(4_000n);
    });
  }

  it("tokens are stored only as their SHA-256: the database holds no usable token", async () => {
    const player = await playerWithSession(ledger, { balance: 1_000n });
    const { userToken } = await mintUserToken({
      ctx: ledger.ctx,
      input: { tenantId: 1, userId: player.userId, ttlSeconds: 60 },
    });
    const [tokens] = (await ledger.db.execute(
      sql`SELECT token FROM user_tokens WHERE player_id = ${player.playerId}`,
    )) as unknown as [Array<{ token: string }>];
    const [sessions] = (await ledger.db.execute(
      sql`SELECT session_token, user_token FROM game_sessions WHERE player_id = ${player.playerId}`,
    )) as unknown as [Array<{ session_token: string; user_token: string }>];
    const stored = [
      ...tokens.map((row) => row.token),
      ...sessions.flatMap((row) => [row.session_token, row.user_token]),
    ];
    expect(stored).toContain(tokenHash(userToken));
    expect(stored).toContain(tokenHash(player.sessionToken));
    expect(stored.every((value) => /^[0-9a-f]{64}$/.test(value))).toBe(true);
    expect(stored).not.toContain(userToken);
    expect(stored).not.toContain(player.sessionToken);
  });
});
