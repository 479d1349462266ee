import { expect } from "vitest";
import { bet, close, freeBet, ok, placed, settle } from "./callbacks.ts";
import type { Drive, Edges, Refusal } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, pathOf } from "./edge-world.ts";
import { perBet, refusedCloses } from "./id-edges.ts";
import { closedByHand } from "./round-edges.ts";

const launchBody = { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" };

/** A launch for `world.someone()` with `over` in its body. */
async function launch(world: EdgeWorld, over: Record<string, unknown>) {
  const player = await world.someone();
  return world.operator("POST", pathOf("/v1/players/{}/launch", player.userId), { ...launchBody, ...over });
}

/** `/balance` for `world.someone()` with `field` one past its limit. */
const balanceRefusal = (world: EdgeWorld, field: string): Refusal<string> => ({
  entry: `/balance ${field}`,
  field,
  send: async (value) => {
    const player = await world.someone();
    return answerOf(await world.callback("/balance", { user_id: player.userId, [field]: value }));
  },
});

/** A bet's key and the bet it settles: every action keyed and answered under it. */
export function providerTxIdEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (key, fresh) => {
      const player = await world.player();
      await world.grantFreeBets(player);
      const stake = await placed(world, player, { provider_tx_id: key });
      const win = settle(player, stake, "WIN", { provider_tx_id: fresh() });
      expect(await ok(world, "/deposit", win)).toMatchObject({ provider_tx_id: win.provider_tx_id });
      // A resend of the BET is answered from its record, under the same key.
      expect(await ok(world, "/withdraw", stake)).toMatchObject({ provider_tx_id: key });
      const free = freeBet(player, { provider_tx_id: fresh() });
      expect(await ok(world, "/withdraw", free)).toMatchObject({ provider_tx_id: free.provider_tx_id });
      await ok(
        world,
        "/deposit",
        settle(player, free, "FREE_BET_WIN", { provider_tx_id: fresh(), amount: 500 }),
      );
      const voided = await placed(world, player, { provider_tx_id: fresh() });
      const rollback = settle(player, voided, "ROLL_BACK", { provider_tx_id: fresh() });
      expect(await ok(world, "/deposit", rollback)).toMatchObject({
        provider_tx_id: rollback.provider_tx_id,
      });
    },
    refusals: [
      ...perBet(world, "provider_tx_id", (key) => ({ provider_tx_id: key })),
      ...perBet(world, "withdraw_provider_tx_id", (key) => ({ withdraw_provider_tx_id: key })).filter(
        (refusal) => !refusal.entry.startsWith("/withdraw"), // a bet settles nothing: not read there
      ),
    ],
  };
}

/** A game id: bet, granted, closed (by the platform and by hand), asked for a balance and launched. */
export function gameEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (game) => {
      const player = await world.player();
      const granted = await world.operator("POST", pathOf("/v1/players/{}/free-bets", player.userId), {
        count: 1,
        game,
      });
      expect(granted).toMatchObject({ status: 201, json: { game, count: 1 } });
      const round = freshId("round");
      const stake = await placed(world, player, { game, action_id: round });
      await ok(world, "/withdraw", freeBet(player, { game, action_id: round }));
      await ok(world, "/deposit", settle(player, stake, "WIN"));
      expect(await world.operator("GET", pathOf("/v1/rounds/{}", round))).toMatchObject({
        json: { round_id: round, game },
      });
      await ok(world, "/balance", { user_id: player.userId, game });
      await ok(world, "/deposit", close(round, { game }));
      const byHand = freshId("round");
      await placed(world, player, { action_id: byHand });
      await closedByHand(world, byHand, { game });
      // Taken by the limit; the platform's catalog has no such game: its 404, passed on.
      expect(await launch(world, { game })).toMatchObject({ status: 404 });
    },
    refusals: [
      ...perBet(world, "game", (game) => ({ game })),
      ...refusedCloses(world, "game", (_game, round) => ({ round_id: round })),
      balanceRefusal(world, "game"),
      {
        entry: "POST /v1/players/{user_id}/free-bets game",
        field: "game",
        send: async (game) => {
          const player = await world.someone();
          return answerOf(
            await world.operator("POST", pathOf("/v1/players/{}/free-bets", player.userId), {
              count: 1,
              game,
            }),
          );
        },
      },
      {
        entry: "POST /v1/players/{user_id}/launch game",
        field: "game",
        send: async (game) => answerOf(await launch(world, { game })),
      },
      {
        entry: "POST /v1/rounds/{round_id}/close game",
        field: "game",
        send: async (game) => answerOf(await world.manualClose(freshId("round"), { game })),
      },
    ],
  };
}

/** The game provider's name: read on every per-bet action, never stored. */
export function providerEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (provider) => {
      const player = await world.player();
      const stake = await placed(world, player, { provider });
      await ok(world, "/deposit", settle(player, stake, "WIN", { provider }));
    },
    refusals: perBet(world, "provider", (provider) => ({ provider })),
  };
}

/** The player's device: on /auth, every callback and the launch. */
export function platformEdges(world: EdgeWorld): Edges<string> {
  // Minted while `taken` runs: a mint is a write, and a refusal is counted against what is written.
  let spareToken = "";
  const auth = (platform: string, userToken: string) =>
    world.callback("/auth", {
      user_token: userToken,
      session_token: freshId("session"),
      currency: "EUR",
      platform,
    });
  const mint = async () => {
    const player = await world.someone();
    const minted = await world.operator("POST", pathOf("/v1/players/{}/tokens", player.userId));
    return String(minted.json.user_token);
  };
  return {
    taken: async (platform) => {
      expect((await auth(platform, await mint())).status).toBe(200);
      spareToken = await mint();
      const player = await world.player();
      const stake = await placed(world, player, { platform });
      await ok(world, "/deposit", settle(player, stake, "WIN", { platform }));
      await ok(world, "/balance", { user_id: player.userId, platform });
      expect((await launch(world, { platform })).status).toBe(200);
    },
    refusals: [
      {
        entry: "/auth platform",
        field: "platform",
        send: async (platform) => answerOf(await auth(platform, spareToken)),
      },
      ...perBet(world, "platform", (platform) => ({ platform })),
      balanceRefusal(world, "platform"),
      {
        entry: "POST /v1/players/{user_id}/launch platform",
        field: "platform",
        send: async (platform) => answerOf(await launch(world, { platform })),
      },
    ],
  };
}

/** The platform's session: bound by /auth, presented by every bet, a balance asked by it. */
export function sessionTokenEdges(world: EdgeWorld): Edges<string> {
  return {
    taken: async (session) => {
      const userId = await world.newPlayer();
      const minted = await world.operator("POST", pathOf("/v1/players/{}/tokens", userId));
      await ok(world, "/auth", {
        user_token: minted.json.user_token,
        session_token: session,
        currency: "EUR",
      });
      const player = { userId, sessionToken: session, currency: "EUR" } as Parameters<typeof bet>[0];
      expect(await ok(world, "/withdraw", bet(player, { amount: 2_000 }))).toMatchObject({
        user_id: userId,
        new_balance: 8_000,
      });
      expect(await ok(world, "/balance", { session_token: session })).toEqual({
        user_id: userId,
        currency: "EUR",
        amount: 8_000,
      });
    },
    refusals: [
      {
        entry: "/auth session_token",
        field: "session_token",
        send: async (session) => {
          const player = await world.someone();
          return answerOf(
            await world.callback("/auth", {
              user_token: player.userToken,
              session_token: session,
              currency: "EUR",
            }),
          );
        },
      },
      ...perBet(world, "session_token", (session) => ({ session_token: session })),
      {
        entry: "/balance session_token",
        field: "session_token",
        send: async (session) => answerOf(await world.callback("/balance", { session_token: session })),
      },
    ],
  };
}

/** An adjustment's reference: the key it is applied and replayed under. */
export function referenceEdges(world: EdgeWorld): Edges<string> {
  const adjust = async (reference: string) => {
    const player = await world.someone();
    return world.operator("POST", pathOf("/v1/players/{}/adjustments", player.userId), {
      amount: 1,
      reason: "limits",
      reference,
    });
  };
  return {
    taken: async (reference) => {
      const applied = await adjust(reference);
      expect(applied).toMatchObject({ status: 201, json: { reference, amount: 1 } });
      expect(await adjust(reference)).toEqual({ status: 200, json: applied.json });
    },
    refusals: [
      {
        entry: "POST /v1/players/{user_id}/adjustments reference",
        field: "reference",
        send: async (reference) => answerOf(await adjust(reference)),
      },
    ],
  };
}

/** The other ids of a callback or an operator call, each through every entry point that takes it. */
export const fieldDrives = (world: EdgeWorld): Drive[] =>
  (
    [
      ["providerTxId", providerTxIdEdges],
      ["game", gameEdges],
      ["provider", providerEdges],
      ["platform", platformEdges],
      ["sessionToken", sessionTokenEdges],
      ["adjustmentReference", referenceEdges],
    ] as const
  ).map(([limit, edges]) => ({ limit, by: "code points", edges: edges(world) }));
