import { randomUUID } from "node:crypto";
import { tokenHash } from "@wallet/contracts/hash";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gameSessions } from "../schema/game-sessions.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { authenticate } from "./authenticate.ts";
import { createPlayer } from "./create-player.ts";
import { mintUserToken } from "./mint-user-token.ts";

const ledger = useTestLedger();

async function newPlayer(options: { minbet?: bigint; maxwin?: bigint; tenantId?: number } = {}) {
  const tenantId = options.tenantId ?? 1;
  const { userId } = await createPlayer({
    ctx: ledger.ctx,
    input: { tenantId, username: "Ada", currency: "EUR", balance: 12_345n, maxbet: 50_000n, ...options },
  });
  const { userToken } = await mintUserToken({ ctx: ledger.ctx, input: { tenantId, userId, ttlSeconds: 60 } });
  return { userId, userToken };
}

async function auth(body: Record<string, unknown>, tenantId = 1) {
  const outcome = await authenticate({ ctx: ledger.ctx, input: { tenantId, body } });
  return { status: outcome.status, json: JSON.parse(outcome.body) };
}

describe("/auth", () => {
  it("answers the player info and binds the session_token to the player", async () => {
    const { userId, userToken } = await newPlayer();
    const sessionToken = `s-${randomUUID()}`;
    const answer = await auth({
      user_token: userToken,
      session_token: sessionToken,
      platform: "mobile",
      currency: "EUR",
    });
    expect(answer).toEqual({
      status: 200,
      json: {
        code: 200,
        message: "OK",
        data: { user_id: userId, username: "Ada", balance: 12_345, currency: "EUR", maxbet: 50_000 },
      },
    });
    const [session] = await ledger.db
      .select({
        userToken: gameSessions.userToken,
        live: sql<number>`${gameSessions.expiresAt} > CURRENT_TIMESTAMP(3)`,
      })
      .from(gameSessions)
      .where(and(eq(gameSessions.tenantId, 1), eq(gameSessions.sessionToken, tokenHash(sessionToken))));
    // Stored as hashes (issue 19): the row binds the session without holding either token.
    expect(session).toEqual({ userToken: tokenHash(userToken), live: 1 });
  });

  it("includes minbet and maxwin when the player has them", async () => {
    const { userToken } = await newPlayer({ minbet: 100n, maxwin: 1_000_000n });
    const answer = await auth({ user_token: userToken, session_token: "s-limits", currency: "EUR" });
    expect(answer.json.data).toMatchObject({ maxbet: 50_000, minbet: 100, maxwin: 1_000_000 });
  });

  it("answers 404 for an unknown user_token and for an expired one", async () => {
    expect(await auth({ user_token: "nope", session_token: "s-x", currency: "EUR" })).toMatchObject({
      status: 404,
      json: { code: 404, message: "user_token not found" },
    });
    const { userToken } = await newPlayer();
    await ledger.db.execute(
      sql`UPDATE user_tokens SET expires_at = CURRENT_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE token = ${tokenHash(userToken)}`,
    );
    expect(await auth({ user_token: userToken, session_token: "s-y", currency: "EUR" })).toMatchObject({
      status: 404,
      json: { message: "user_token expired" },
    });
  });

  it("answers 400 when the currency differs from the player's, and binds no session", async () => {
    const { userToken } = await newPlayer();
    const answer = await auth({ user_token: userToken, session_token: "s-usd", currency: "USD" });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe("currency USD does not match the player's currency EUR");
    const sessions = await ledger.db
      .select()
      .from(gameSessions)
      .where(eq(gameSessions.sessionToken, tokenHash("s-usd")));
    expect(sessions).toHaveLength(0);
  });

  it("answers 400 for a malformed body, naming the fields", async () => {
    const answer = await auth({ user_token: "", currency: "eur" });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe(
      "user_token: must not be empty; session_token: is required; currency: must be a 3-letter ISO currency code in upper case",
    );
  });

  it("a user_token of tenant 1 is unknown to tenant 2 (404)", async () => {
    const { userToken } = await newPlayer({ tenantId: 1 });
    expect((await auth({ user_token: userToken, session_token: "s-t2", currency: "EUR" }, 2)).status).toBe(
      404,
    );
  });

  it("re-auth of the same session is fine; a session bound to another player is refused (404)", async () => {
    const first = await newPlayer();
    const second = await newPlayer();
    const body = { user_token: first.userToken, session_token: "s-shared", currency: "EUR" };
    expect((await auth(body)).status).toBe(200);
    expect((await auth(body)).status).toBe(200);
    const stolen = await auth({ ...body, user_token: second.userToken });
    expect(stolen).toMatchObject({
      status: 404,
      json: { message: "session_token is bound to another player" },
    });
  });
});
