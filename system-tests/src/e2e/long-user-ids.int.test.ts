import { longestUserIds, overlongUserId } from "@wallet/contracts/testing/longest-user-ids";
import { userIdMax, userTokenMax } from "@wallet/contracts/user-token";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, callGateway, operatorCall, operatorGet, useTestSystem } from "../harness/system.ts";

/**
 * A user_id is measured in code points everywhere (the schemas, the VARCHAR column) and the token
 * limit is sized for 4 UTF-8 bytes each: every id the operator API creates can be minted a token,
 * launched, and authenticated by the platform, however wide its characters.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
let sim: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  gateway = await system.startGateway();
  sim = await system.startPlatformSim(gateway);
  api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
}, 60_000);

const playerPath = (userId: string, rest = "") =>
  `/v1/players/${encodeURIComponent(userId)}${rest}?operatorId=1`;

describe("the longest user_id of every character width", () => {
  it("is created (201), minted a token (201) that the gateway's /auth takes (200, the same id), launched, and played by the platform", async () => {
    const ids = Object.values(longestUserIds);
    for (const [index, userId] of ids.entries()) {
      const created = await operatorCall(api, "POST", "/v1/players?operatorId=1", {
        user_id: userId,
        username: `wide-${index}`,
        currency: "EUR",
        balance: 50_000,
        maxbet: 5_000,
      });
      expect(created).toEqual({
        status: 201,
        json: {
          user_id: userId,
          operator_id: 1,
          username: `wide-${index}`,
          currency: "EUR",
          balance: 50_000,
        },
      });

      const minted = await operatorCall(api, "POST", playerPath(userId, "/tokens"));
      expect(minted.status).toBe(201);
      const userToken = minted.json.user_token as string;
      const auth = await callGateway(gateway, "/auth", {
        user_token: userToken,
        session_token: `s-wide-${index}`,
        platform: "desktop",
        currency: "EUR",
      });
      expect({ status: auth.status, message: auth.json.message }).toEqual({ status: 200, message: "OK" });
      expect(auth.json.data).toMatchObject({ user_id: userId, username: `wide-${index}`, balance: 50_000 });
      expect(userToken.length).toBeLessThanOrEqual(userTokenMax);

      const launched = await operatorCall(api, "POST", playerPath(userId, "/launch"), {
        game: "crashGame",
        currency: "EUR",
        platform: "desktop",
        portalMode: "real",
      });
      expect(launched.status).toBe(200);
      expect(launched.json.session_token).toEqual(expect.any(String));
    }

    // The platform authenticates each launched player with the token it was handed, then bets.
    const played = await fetch(`http://127.0.0.1:${sim.port}/sim/play`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rounds: 1, wait: true, voidRate: 0, freeBetRate: 0 }),
    });
    const summary = (await played.json()) as {
      stats: { byStatus: Record<string, number> };
      players: Array<{ userId?: string; lastBalance?: number }>;
    };
    expect(Object.keys(summary.stats.byStatus).filter((key) => !key.endsWith(" 200"))).toEqual([]);
    expect(summary.players.map((player) => player.userId).sort()).toEqual([...ids].sort());
    for (const seen of summary.players) {
      const { status, json } = await operatorGet(api, playerPath(seen.userId ?? ""));
      expect({ status, user_id: json.user_id, balance: json.balance }).toEqual({
        status: 200,
        user_id: seen.userId,
        balance: seen.lastBalance,
      });
    }
  }, 60_000);

  it(`one code point past ${userIdMax} is refused at creation (400) and no player is made`, async () => {
    const refused = await operatorCall(api, "POST", "/v1/players?operatorId=1", {
      user_id: overlongUserId,
      username: "too-wide",
      currency: "EUR",
      maxbet: 5_000,
    });
    expect(refused).toEqual({
      status: 400,
      json: { code: 400, message: `user_id: must be at most ${userIdMax} characters` },
    });
    // Nor can one be minted a token: every /v1/players/{user_id} path holds it to the same limit.
    expect(await operatorCall(api, "POST", playerPath(overlongUserId, "/tokens"))).toEqual({
      status: 400,
      json: { code: 400, message: `user_id: must be at most ${userIdMax} characters` },
    });
  });
});
