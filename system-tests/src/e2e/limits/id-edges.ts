import { expect } from "vitest";
import { bet, close, large, ok, placed, settle } from "./callbacks.ts";
import type { Drive, Edges, Refusal } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, pathOf } from "./edge-world.ts";

/** The same refusal, sent to each per-bet action: BET, FREE_BET, WIN, FREE_BET_WIN, ROLL_BACK. */
export function perBet(world: EdgeWorld, field: string, over: (value: string) => Record<string, unknown>) {
  const actions = [
    ["/withdraw", "BET"],
    ["/withdraw", "FREE_BET"],
    ["/deposit", "WIN"],
    ["/deposit", "FREE_BET_WIN"],
    ["/deposit", "ROLL_BACK"],
  ] as const;
  return actions.map(
    ([path, action]): Refusal<string> => ({
      entry: `${path} ${action} ${field}`,
      field,
      send: async (value) => {
        const player = await world.someone();
        const body = bet(player, {
          action,
          amount: action === "FREE_BET" ? 0 : 1_000,
          withdraw_provider_tx_id: freshId("bet"),
          ...over(value),
        });
        return answerOf(await world.callback(path, body));
      },
    }),
  );
}

/**
 * A close refused for its `field`, read whole and streamed: stored as refused (`bad_id`), keeping
 * what `keeps` says of the round it named and its key (an id past its limit is kept as null).
 */
export function refusedCloses(
  world: EdgeWorld,
  field: string,
  keeps: (value: string, round: string) => Record<string, unknown>,
  after?: (row: Record<string, unknown>) => Promise<void>,
): Refusal<string>[] {
  return [false, true].map((streamed): Refusal<string> => {
    let sent = { round: "", raw: "" };
    return {
      entry: `/deposit CLOSE_ROUND ${field}${streamed ? " (streamed)" : ""}`,
      field,
      send: async (value) => {
        const round = freshId("round");
        const body = close(round, { [field]: value });
        sent = { round, raw: streamed ? large(body) : JSON.stringify(body) };
        return answerOf(await world.callback("/deposit", body, sent.raw));
      },
      afterwards: async (value) => {
        // Listed by its body as received (a streamed one by its start).
        const row = await world.refusedClose((candidate) => sent.raw.startsWith(String(candidate.body)));
        expect(row).toMatchObject({
          reason: "bad_id",
          body_complete: !streamed,
          ...keeps(value, sent.round),
        });
        await after?.(row);
      },
    };
  });
}

const operatorPath =
  (world: EdgeWorld, method: string, template: string, body?: unknown) => async (value: string) =>
    answerOf(await world.operator(method, pathOf(template, value), body));

export function userIdEdges(world: EdgeWorld): Edges<string> {
  const launch = { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" };
  const adjustment = () => ({ amount: 500, reason: "limits", reference: freshId("ref") });
  return {
    taken: async (userId) => {
      const created = await world.operator("POST", "/v1/players", {
        user_id: userId,
        username: "limits",
        currency: "EUR",
        balance: 100_000,
        maxbet: 100_000,
      });
      expect(created).toEqual({
        status: 201,
        json: { user_id: userId, operator_id: 1, username: "limits", currency: "EUR", balance: 100_000 },
      });
      const at = (rest = "") => pathOf(`/v1/players/{}${rest}`, userId);
      expect(await world.operator("GET", at())).toMatchObject({ status: 200, json: { user_id: userId } });
      const minted = await world.operator("POST", at("/tokens"));
      expect(minted.status).toBe(201);
      const player = { userId, sessionToken: freshId("session"), currency: "EUR" } as Parameters<
        typeof bet
      >[0];
      const auth = await ok(world, "/auth", {
        user_token: minted.json.user_token,
        session_token: player.sessionToken,
        currency: "EUR",
      });
      expect(auth).toMatchObject({ user_id: userId, balance: 100_000 });
      const stake = await placed(world, player);
      expect(await ok(world, "/deposit", settle(player, stake, "WIN"))).toMatchObject({
        user_id: userId,
        new_balance: 101_000,
      });
      expect(await ok(world, "/balance", { user_id: userId, currency: "EUR" })).toEqual({
        user_id: userId,
        currency: "EUR",
        amount: 101_000,
      });
      expect(await world.operator("POST", at("/adjustments"), adjustment())).toMatchObject({
        status: 201,
        json: { user_id: userId, new_balance: 101_500 },
      });
      expect((await world.operator("POST", at("/free-bets"), { count: 1 })).status).toBe(201);
      const journal = await world.operator("GET", at("/transactions"));
      expect((journal.json.items as Array<{ kind: string }>).map((line) => line.kind)).toEqual([
        "ADJUSTMENT",
        "WIN",
        "BET",
        "OPENING",
      ]);
      expect((await world.operator("POST", at("/launch"), launch)).status).toBe(200);
    },
    refusals: [
      {
        entry: "POST /v1/players user_id",
        field: "user_id",
        send: async (userId) =>
          answerOf(
            await world.operator("POST", "/v1/players", {
              user_id: userId,
              username: "limits",
              currency: "EUR",
              maxbet: 1_000,
            }),
          ),
      },
      {
        entry: "GET /v1/players/{user_id}",
        field: "user_id",
        send: operatorPath(world, "GET", "/v1/players/{}"),
      },
      {
        entry: "POST /v1/players/{user_id}/tokens",
        field: "user_id",
        send: operatorPath(world, "POST", "/v1/players/{}/tokens"),
      },
      {
        entry: "POST /v1/players/{user_id}/launch",
        field: "user_id",
        send: operatorPath(world, "POST", "/v1/players/{}/launch", launch),
      },
      {
        entry: "POST /v1/players/{user_id}/adjustments",
        field: "user_id",
        send: async (userId) =>
          answerOf(await world.operator("POST", pathOf("/v1/players/{}/adjustments", userId), adjustment())),
      },
      {
        entry: "POST /v1/players/{user_id}/free-bets",
        field: "user_id",
        send: operatorPath(world, "POST", "/v1/players/{}/free-bets", { count: 1 }),
      },
      {
        entry: "GET /v1/players/{user_id}/transactions",
        field: "user_id",
        send: operatorPath(world, "GET", "/v1/players/{}/transactions"),
      },
      ...perBet(world, "user_id", (userId) => ({ user_id: userId })),
      {
        entry: "/balance user_id",
        field: "user_id",
        send: async (userId) =>
          answerOf(await world.callback("/balance", { user_id: userId, currency: "EUR" })),
      },
    ],
  };
}

/** The player's id, through every entry point that names a player. */
export const userIdDrives = (world: EdgeWorld): Drive[] => [
  { limit: "userId", by: "code points", edges: userIdEdges(world) },
];
