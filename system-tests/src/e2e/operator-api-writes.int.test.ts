import { randomUUID } from "node:crypto";
import { listOperatorActions } from "@wallet/ledger/reads/operator-actions";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { tenantFootprint } from "@wallet/ledger/testing/tenant-reads";
import { createOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  operatorGet,
  sideEffectsApplied,
  testTenants,
  useTestSystem,
} from "../harness/system.ts";

/**
 * The operator API's writes: which operator a body names (every route, not only player creation),
 * which writes are audited (mints, launches and cache drops too, never a credential), and what a
 * second manual close of a round answers.
 */
const system = useTestSystem();
const envToken = "test-operator-token";
const [tenant1, tenant2] = testTenants;
if (!tenant1 || !tenant2) throw new Error("two test tenants expected");
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  gateway = await system.startGateway();
  const sim = await system.startPlatformSim(gateway);
  api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
}, 60_000);

const call = async (token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${api.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
};

/** A player with an open round (one bet of 1,000), of operator 1 or 2. */
const playerWithRound = async (tenant = tenant1) => {
  const player = await authedPlayer(system, gateway, { balance: 20_000n, tenant });
  const roundId = `round-${randomUUID().slice(0, 8)}`;
  const bet = await callGateway(
    gateway,
    "/withdraw",
    betBody(player, { amount: 1_000, action_id: roundId }),
    {
      tenant,
    },
  );
  expect(bet.status).toBe(200);
  return { ...player, roundId };
};

/** Every route that writes, each with a body that succeeds for the player's own operator. */
const writeRoutes = (userId: string, roundId: string): Array<[string, Record<string, unknown>]> => [
  ["/v1/players", { user_id: `new-${randomUUID()}`, username: "n", currency: "EUR", maxbet: 100 }],
  [`/v1/players/${userId}/tokens`, {}],
  [
    `/v1/players/${userId}/launch`,
    { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" },
  ],
  [`/v1/players/${userId}/adjustments`, { amount: 1_000, reason: "bonus", reference: `r-${randomUUID()}` }],
  [`/v1/players/${userId}/free-bets`, { count: 2 }],
  [`/v1/rounds/${roundId}/close`, { crashGameCashOutCoefficients: [0], crashGameBets: [1_000] }],
  ["/v1/games/cache/invalidate", {}],
];

const footprints = async () => ({
  operator1: await tenantFootprint(system.ledger, 1),
  operator2: await tenantFootprint(system.ledger, 2),
});
const catalogFetchedAt = async (operatorId: number) =>
  (await call(envToken, "GET", `/v1/games?operatorId=${operatorId}`)).json.fetched_at;

describe("a body operatorId on every write route", () => {
  it("a body naming another operator than the query is a 400 naming both, on every route; nothing is written", async () => {
    const player = await playerWithRound();
    const fetchedAt = await catalogFetchedAt(1);
    const before = await footprints();
    const routes = writeRoutes(player.userId, player.roundId);
    const answers = [];
    for (const [path, body] of routes) {
      const answer = await call(envToken, "POST", `${path}?operatorId=1`, { ...body, operatorId: 2 });
      answers.push({ path, ...answer });
    }
    expect(answers).toEqual(
      routes.map(([path]) => ({
        path,
        status: 400,
        json: { code: 400, message: "operatorId: the body names 2 and the query 1; send one, or the same" },
      })),
    );
    expect(await footprints()).toEqual(before);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(19_000n);
    expect(await catalogFetchedAt(1)).toBe(fetchedAt); // the cache was not dropped
  });

  it("an operator's token with a body naming another operator is a 404 on every route; its own player is not touched", async () => {
    const player = await playerWithRound();
    const { token } = await createOperatorToken(system.ledger.db, { tenantId: 1, scope: "write" });
    const fetchedAt = await catalogFetchedAt(1);
    const before = await footprints();
    const routes = writeRoutes(player.userId, player.roundId);
    const answers = [];
    for (const [path, body] of routes)
      answers.push({ path, ...(await call(token, "POST", path, { ...body, operatorId: 2 })) });
    expect(answers).toEqual(
      routes.map(([path]) => ({ path, status: 404, json: { code: 404, message: "operator 2 not found" } })),
    );
    expect(await footprints()).toEqual(before);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(19_000n);
    expect(await catalogFetchedAt(1)).toBe(fetchedAt);
  });

  it("a body operatorId that is not a positive integer is a 400 on every route; nothing is written", async () => {
    const player = await playerWithRound();
    const before = await footprints();
    const routes = writeRoutes(player.userId, player.roundId);
    const invalid = ["1", 0, -1, 1.5, null, true];
    const answers = [];
    for (const operatorId of invalid)
      for (const [path, body] of routes)
        answers.push({
          path,
          operatorId,
          ...(await call(envToken, "POST", `${path}?operatorId=1`, { ...body, operatorId })),
        });
    expect(answers).toEqual(
      invalid.flatMap((operatorId) =>
        routes.map(([path]) => ({
          path,
          operatorId,
          status: 400,
          json: { code: 400, message: "operatorId: must be a positive integer" },
        })),
      ),
    );
    expect(await footprints()).toEqual(before);
    expect(await balanceOf(system.ledger, player.playerId)).toBe(19_000n);
  });

  it("a body operatorId alone picks the operator, on every route, and the same one in body and query is fine", async () => {
    const theirs = await playerWithRound(tenant2);
    const operator1Before = await tenantFootprint(system.ledger, 1);
    const answers = [];
    for (const [path, body] of writeRoutes(theirs.userId, theirs.roundId)) {
      const answer = await call(envToken, "POST", path, { ...body, operatorId: 2 });
      answers.push([path, answer.status]);
    }
    expect(answers).toEqual([
      ["/v1/players", 201],
      [`/v1/players/${theirs.userId}/tokens`, 201],
      [`/v1/players/${theirs.userId}/launch`, 200],
      [`/v1/players/${theirs.userId}/adjustments`, 201],
      [`/v1/players/${theirs.userId}/free-bets`, 201],
      [`/v1/rounds/${theirs.roundId}/close`, 200],
      ["/v1/games/cache/invalidate", 204],
    ]);
    // All of it for operator 2: its player credited and granted, its round closed; operator 1 untouched.
    expect(await balanceOf(system.ledger, theirs.playerId)).toBe(20_000n);
    expect((await operatorGet(api, `/v1/rounds/${theirs.roundId}?operatorId=2`)).json).toMatchObject({
      status: "closed",
      close: { provider_tx_id: `${theirs.roundId}-2-manual`, stakes: [1_000] },
    });
    expect(await tenantFootprint(system.ledger, 1)).toEqual(operator1Before);
    const trail = await listOperatorActions(system.ledger.db, { tenantId: 2, limit: 10 });
    expect(trail.actions.map((line) => line.action)).toEqual([
      "game_cache_invalidation",
      "manual_close",
      "free_bet_grant",
      "adjustment",
      "launch",
      "user_token_mint",
      "create_player",
    ]);

    const ours = await playerWithRound();
    const same = await call(envToken, "POST", `/v1/players/${ours.userId}/adjustments?operatorId=1`, {
      amount: 500,
      reason: "bonus",
      reference: `same-${randomUUID()}`,
      operatorId: 1,
    });
    expect(same).toMatchObject({ status: 201, json: { user_id: ours.userId, new_balance: 19_500 } });
    expect(await balanceOf(system.ledger, ours.playerId)).toBe(19_500n);
  });
});

describe("every write is audited, never with a credential", () => {
  it("a user-token mint, a launch and a catalog cache drop each leave an audit line with the token that made them; refusals leave none", async () => {
    const player = await playerWithRound();
    const { token, publicId } = await createOperatorToken(system.ledger.db, { tenantId: 1, scope: "write" });
    const actor = `token:${publicId}`;
    const launch = { game: "crashGame", currency: "EUR", platform: "desktop", portalMode: "real" };

    const minted = await call(token, "POST", `/v1/players/${player.userId}/tokens`);
    expect(minted.status).toBe(201);
    const launched = await call(token, "POST", `/v1/players/${player.userId}/launch`, launch);
    expect(launched.status).toBe(200);
    const dropped = await call(token, "POST", "/v1/games/cache/invalidate");
    expect(dropped.status).toBe(204);
    // Refused: an unknown player's mint, a demo launch of a game without one, an unknown game.
    expect((await call(token, "POST", "/v1/players/nobody/tokens")).status).toBe(404);
    const demo = await call(token, "POST", `/v1/players/${player.userId}/launch`, {
      ...launch,
      game: "fruitSlot",
      portalMode: "demo",
    });
    expect(demo.status).toBe(400);
    const unknown = await call(token, "POST", `/v1/players/${player.userId}/launch`, {
      ...launch,
      game: "noSuchGame",
    });
    expect(unknown.status).toBe(404);

    const trail = await call(token, "GET", "/v1/audit?limit=50");
    const mine = (trail.json.actions as Array<Record<string, unknown>>)
      .filter((line) => line.actor === actor)
      .map(({ action, subject, detail }) => ({ action, subject, detail }));
    expect(mine).toEqual([
      { action: "game_cache_invalidation", subject: "games", detail: {} },
      {
        action: "launch",
        subject: player.userId,
        detail: {
          game: "crashGame",
          currency: "EUR",
          platform: "desktop",
          portal_mode: "real",
          user_token_expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
      { action: "user_token_mint", subject: player.userId, detail: { expires_at: minted.json.expires_at } },
    ]);
    // The rows themselves hold no credential that was handed out.
    const stored = JSON.stringify(await listOperatorActions(system.ledger.db, { tenantId: 1, limit: 500 }));
    for (const secret of [minted.json.user_token, launched.json.session_token, launched.json.launch_url])
      expect(stored).not.toContain(String(secret));
  });
});

describe("the audit trail's pages through the API (issue 42)", () => {
  it("one line a page lists the whole trail once, in order, with an opaque next_before; a bare line id still continues; a malformed before is a 400", async () => {
    const { token } = await createOperatorToken(system.ledger.db, { tenantId: 1, scope: "write" });
    for (let i = 0; i < 3; i++)
      expect((await call(token, "POST", "/v1/games/cache/invalidate")).status).toBe(204);
    const whole = await call(token, "GET", "/v1/audit?limit=500");
    const ids = (whole.json.actions as Array<{ id: number }>).map((line) => line.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const paged: number[] = [];
    const cursors: unknown[] = [];
    for (let before: unknown = undefined; paged.length <= ids.length; ) {
      const query = before === undefined ? "" : `&before=${String(before)}`;
      const page = await call(token, "GET", `/v1/audit?limit=1${query}`);
      expect(page.status).toBe(200);
      paged.push(...(page.json.actions as Array<{ id: number }>).map((line) => line.id));
      before = page.json.next_before;
      if (before === null) break;
      cursors.push(before);
    }
    expect(paged).toEqual(ids);
    for (const cursor of cursors) expect(cursor).toMatch(/^\d+\.\d+$/);
    // The cursor before issue 42 was the last line's id: the page after it still starts at the next line.
    const [first, second] = ids;
    const after = await call(token, "GET", `/v1/audit?limit=1&before=${String(first)}`);
    expect((after.json.actions as Array<{ id: number }>).map((line) => line.id)).toEqual([second]);
    expect((await call(token, "GET", "/v1/audit?before=yesterday")).status).toBe(400);
  });
});

describe("a second manual close", () => {
  it("with other arrays answers 200 with the first close, replayed and differs_from_first; applies nothing; audited", async () => {
    const player = await playerWithRound();
    const path = `/v1/rounds/${player.roundId}/close?operatorId=1`;
    const first = await call(envToken, "POST", path, {
      crashGameCashOutCoefficients: [0],
      crashGameBets: [1_000],
    });
    expect([first.status, first.json.replayed]).toEqual([200, false]);
    await sideEffectsApplied(api, player.roundId);

    const other = await call(envToken, "POST", path, {
      crashGameCashOutCoefficients: [2.5],
      crashGameBets: "[1000]",
      note: "second try",
    });
    expect(other).toEqual({
      status: 200,
      json: {
        round_id: player.roundId,
        provider_tx_id: `${player.roundId}-1-manual`,
        replayed: true,
        differs_from_first: true,
        refused_closes_resolved: 0,
        close: first.json.close,
      },
    });
    // The same arrays again: the first answer too, and it says they are those applied.
    const same = await call(envToken, "POST", path, {
      crashGameCashOutCoefficients: "[0]",
      crashGameBets: [1_000],
    });
    expect(same).toEqual({ status: 200, json: { ...other.json, differs_from_first: false } });
    expect(first.json).toMatchObject({ replayed: false, differs_from_first: false });

    // Nothing of the second was applied: one close, the first's arrays, no payout.
    expect(await countRows(system.ledger, "round_closes", `${player.roundId}-1-manual`)).toBe(1);
    expect((await operatorGet(api, `/v1/rounds/${player.roundId}?operatorId=1`)).json).toMatchObject({
      close: { stakes: [1_000], cash_out_coefficients: [0] },
    });
    expect(await balanceOf(system.ledger, player.playerId)).toBe(19_000n);
    const trail = await listOperatorActions(system.ledger.db, { tenantId: 1, limit: 500 });
    const closes = trail.actions.filter(
      (line) => line.action === "manual_close" && line.subject === player.roundId,
    );
    expect(closes.map((line) => line.detail)).toMatchObject([
      { replayed: true, differs_from_first: false, answer: { code: 200, data: first.json.close } },
      {
        replayed: true,
        differs_from_first: true,
        request: { crashGameCashOutCoefficients: "[2.5]", note: "second try" },
        answer: { code: 200, data: first.json.close },
      },
      { replayed: false, differs_from_first: false, answer: { code: 200, data: first.json.close } },
    ]);
  });

  it("after the platform's own close answers that close, and says whether its arrays were those", async () => {
    const player = await playerWithRound();
    const platform = await callGateway(gateway, "/deposit", closeRoundBody(player.roundId, [1_000], [1.5]));
    expect(platform.status).toBe(200);
    const path = `/v1/rounds/${player.roundId}/close?operatorId=1`;
    const other = await call(envToken, "POST", path, {
      crashGameCashOutCoefficients: [0],
      crashGameBets: [1_000],
    });
    expect(other.json).toMatchObject({ replayed: true, differs_from_first: true, close: platform.json.data });
    const same = await call(envToken, "POST", path, {
      crashGameCashOutCoefficients: [1.5],
      crashGameBets: [1_000],
    });
    expect(same).toEqual({
      status: 200,
      json: { ...other.json, differs_from_first: false },
    });
    expect((await operatorGet(api, `/v1/rounds/${player.roundId}?operatorId=1`)).json).toMatchObject({
      close: { provider_tx_id: `${player.roundId}-1-close-round`, cash_out_coefficients: [1.5] },
    });
  });
});
