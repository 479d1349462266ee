/** What apps/operator-api/src/routes serves: its OpenAPI document must not have lost one. */
export const servedRoutes = [
  "POST /v1/players",
  "GET /v1/players/{user_id}",
  "POST /v1/players/{user_id}/tokens",
  "POST /v1/players/{user_id}/launch",
  "POST /v1/players/{user_id}/adjustments",
  "POST /v1/players/{user_id}/free-bets",
  "GET /v1/players/{user_id}/transactions",
  "GET /v1/games",
  "POST /v1/games/cache/invalidate",
  "GET /v1/rounds/{round_id}",
  "POST /v1/rounds/{round_id}/close",
  "GET /v1/refused-closes",
  "GET /v1/tournaments/{id}/leaderboard",
  "GET /v1/audit",
];

/**
 * The request for a listed route as operator 2, naming `userId`; with a body that would succeed with
 * the right token (creating the player `newUserId`, for `POST /v1/players`).
 */
export function routeRequest(route: string, userId: string, newUserId: string) {
  const bodies: Record<string, unknown> = {
    "POST /v1/players": {
      user_id: newUserId,
      username: "ghost",
      currency: "EUR",
      balance: 1_000,
      maxbet: 100,
    },
    "POST /v1/players/{user_id}/adjustments": { amount: 1_000, reason: "bonus", reference: "ref-bearer" },
    "POST /v1/players/{user_id}/free-bets": { count: 2 },
    "POST /v1/players/{user_id}/launch": {
      game: "crashGame",
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
    },
  };
  const [method = "", template = ""] = route.split(" ");
  const path = template
    .replace("{user_id}", encodeURIComponent(userId))
    .replace("{round_id}", "round-1")
    .replace("{id}", "1");
  return { method, path: `${path}?operatorId=2`, body: bodies[route] };
}

/**
 * Every request that names one player or one round (the adjustment under `reference`), each with
 * what an operator that does not own them is told, with a 404: [method, path, body, message].
 */
export function playerAndRoundRequests(
  userId: string,
  roundId: string,
  reference: string,
): Array<[string, string, unknown, string]> {
  const user = encodeURIComponent(userId);
  const notFound = `user ${userId} not found`;
  return [
    ["GET", `/v1/players/${user}`, undefined, `player ${userId} not found`],
    ["GET", `/v1/players/${user}/transactions`, undefined, notFound],
    ["GET", `/v1/rounds/${roundId}`, undefined, `round ${roundId} not found`],
    ["POST", `/v1/players/${user}/tokens`, undefined, notFound],
    ["POST", `/v1/players/${user}/adjustments`, { amount: 1_000, reason: "bonus", reference }, notFound],
    ["POST", `/v1/players/${user}/free-bets`, { count: 2 }, notFound],
    [
      "POST",
      `/v1/players/${user}/launch`,
      { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" },
      notFound,
    ],
  ];
}
