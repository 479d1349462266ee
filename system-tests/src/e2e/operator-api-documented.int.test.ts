import { randomUUID } from "node:crypto";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { operatorRoutes } from "@wallet/operator-api/route-list";
import { documentedAnswerProblem, routeOf } from "@wallet/operator-api/testing/documented-answer";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  runningTournament,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * The OpenAPI document tells the truth about answers: every route is called until it succeeds (and
 * refused a few ways), and each answer is read against the response its route documents for that
 * status: the status must be listed, the body must have the documented shape and no field it omits.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker({ LOYALTY_POINTS_PER_1000: "1" });
  gateway = await system.startGateway();
  const sim = await system.startPlatformSim(gateway);
  api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
}, 60_000);

const answers: Array<{ method: string; path: string; status: number; body: unknown }> = [];
const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${api.port}${path}`, {
    method,
    headers: { authorization: "Bearer test-operator-token", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get("content-type")?.startsWith("application/json");
  const text = bytes.toString("utf8");
  const answer = {
    method,
    path,
    status: response.status,
    body: json ? JSON.parse(text) : text ? bytes : undefined,
  };
  answers.push(answer);
  return answer;
};

describe("every answer is the one its route documents", () => {
  it("each route's success and refusals match their documented status and shape", async () => {
    const tournament = await runningTournament(system, "documented cup");
    // A round with a bet, a win, a refused close and a manual one: every part of its status filled.
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    const roundId = `documented-${randomUUID().slice(0, 8)}`;
    const bet = betBody(player, { amount: 1_000, action_id: roundId });
    expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(200);
    await callGateway(gateway, "/deposit", settleBody(player, bet, "WIN", { amount: 1_500 }));
    const misaligned = await callGateway(gateway, "/deposit", closeRoundBody(roundId, [1_000, 5], [1.5]));
    expect(misaligned.status).toBe(400);
    const user = player.userId;

    const created = await call("POST", "/v1/players?operatorId=1", {
      username: "doc",
      currency: "EUR",
      maxbet: 10,
    });
    await call("POST", "/v1/players?operatorId=1", {
      user_id: created.body.user_id,
      username: "d",
      currency: "EUR",
      maxbet: 1,
    });
    await call("POST", "/v1/players?operatorId=1", { username: "" });
    await call("POST", `/v1/players/${user}/tokens?operatorId=1`);
    await call("POST", "/v1/players/nobody/tokens?operatorId=1");
    const launch = { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" };
    await call("POST", `/v1/players/${user}/launch?operatorId=1`, launch);
    await call("POST", `/v1/players/${user}/launch?operatorId=1`, {
      ...launch,
      game: "fruitSlot",
      portalMode: "demo",
    });
    const adjustment = { amount: 700, reason: "documented", reference: `doc-${randomUUID()}` };
    await call("POST", `/v1/players/${user}/adjustments?operatorId=1`, adjustment);
    await call("POST", `/v1/players/${user}/adjustments?operatorId=1`, adjustment);
    await call("POST", `/v1/players/${user}/adjustments?operatorId=1`, { ...adjustment, amount: 9 });
    await call("POST", `/v1/players/${user}/adjustments?operatorId=1`, {
      ...adjustment,
      amount: -1e9,
      reference: "r2",
    });
    await call("POST", "/v1/players/ghost/adjustments?operatorId=1", { ...adjustment, reference: "r3" });
    await call("POST", `/v1/players/${user}/free-bets?operatorId=1`, { count: 2, game: "crashGame" });
    await call("GET", `/v1/players/${user}/transactions?operatorId=1&limit=2`);
    await call("GET", `/v1/players/${user}/transactions?operatorId=1&cursor=abc`);
    await call("GET", "/v1/games?operatorId=1");
    await call("POST", "/v1/games/cache/invalidate?operatorId=1");
    const listed = await call("GET", "/v1/refused-closes?operatorId=1");
    const refusedId = (listed.body as { refused_closes: Array<{ id: number }> }).refused_closes[0]?.id;
    await call("GET", `/v1/refused-closes/${refusedId}/body?operatorId=1`);
    await call("GET", "/v1/refused-closes/999999/body?operatorId=1");
    await call("GET", "/v1/refused-closes/abc/body?operatorId=1");
    await call("POST", `/v1/rounds/${roundId}/close?operatorId=1`, {
      crashGameCashOutCoefficients: [1.5],
      crashGameBets: [1_000],
    });
    await call("POST", `/v1/rounds/${roundId}/close?operatorId=1`, { crashGameBets: [1] });
    await sideEffectsApplied(api, roundId);
    await call("GET", `/v1/rounds/${roundId}?operatorId=1`);
    await call("GET", "/v1/rounds/nowhere?operatorId=1");
    await call("GET", `/v1/refused-closes?operatorId=1&include_resolved=true`);
    await call("GET", `/v1/players/${user}?operatorId=1`);
    await call("GET", "/v1/players/nobody?operatorId=1");
    await call("GET", `/v1/tournaments/${tournament.tournamentId}/leaderboard?operatorId=1`);
    await call("GET", "/v1/tournaments/abc/leaderboard?operatorId=1");
    await call("GET", "/v1/audit?operatorId=1&limit=3");

    const problems = answers
      .map(({ method, path, status, body }) => documentedAnswerProblem(method, path, status, body))
      .filter(Boolean);
    expect(problems).toEqual([]);
    // Not vacuous: every route answered a success at least once, and the parts that are often empty were not.
    const succeeded = new Set(
      answers.filter((answer) => answer.status < 300).map((answer) => routeOf(answer.method, answer.path)),
    );
    expect([...succeeded].length).toBe(operatorRoutes.length);
    const round = answers.find((answer) => answer.path.startsWith(`/v1/rounds/${roundId}?`))?.body;
    expect(round).toMatchObject({
      status: "closed",
      user_ids: [user],
      report: { schemaVersion: 2 },
      reconciliation: { revision: 1 },
    });
    expect(answers.map((answer) => answer.status)).toEqual(expect.arrayContaining([400, 402, 404, 409]));
  });
});
