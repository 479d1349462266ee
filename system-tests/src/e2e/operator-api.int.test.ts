import { execFile } from "node:child_process";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { tokenHash } from "@wallet/contracts/hash";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { storedOperatorTokenHash } from "@wallet/ledger/testing/stored-tokens";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  callGateway,
  operatorCall,
  operatorGet,
  scrapeOf,
  useTestSystem,
} from "../harness/system.ts";

const system = useTestSystem();
const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../..");
let gateway: AppProcess;
let api: AppProcess;
let sim: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  gateway = await system.startGateway();
  sim = await system.startPlatformSim(gateway);
  api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
}, 60_000);

const newPlayer = async (balance = 10_000) => {
  const created = await operatorCall(api, "POST", "/v1/players?operatorId=1", {
    username: "op-test",
    currency: "EUR",
    balance,
    maxbet: 50_000,
  });
  expect(created.status).toBe(201);
  return created.json.user_id as string;
};

describe("players", () => {
  it("creates a player (201) with an opening balance in the journal; a taken user_id is 409; a bad body is 400", async () => {
    const created = await operatorCall(api, "POST", "/v1/players", {
      user_id: "alice-op",
      username: "Alice",
      currency: "EUR",
      balance: 25_000,
      maxbet: 10_000,
      minbet: 100,
      operatorId: 1,
    });
    expect(created).toEqual({
      status: 201,
      json: { user_id: "alice-op", operator_id: 1, username: "Alice", currency: "EUR", balance: 25_000 },
    });
    expect((await operatorGet(api, "/v1/players/alice-op?operatorId=1")).json).toMatchObject({
      balance: 25_000,
      maxbet: 10_000,
      minbet: 100,
    });
    const again = await operatorCall(api, "POST", "/v1/players", {
      user_id: "alice-op",
      username: "A",
      currency: "EUR",
      maxbet: 1,
      operatorId: 1,
    });
    expect(again).toEqual({ status: 409, json: { code: 409, message: "user alice-op already exists" } });
    const bad = await operatorCall(api, "POST", "/v1/players?operatorId=1", {
      username: "",
      currency: "euro",
      balance: 1.5,
      maxbet: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(
      "username: must not be empty; currency: must be a 3-letter ISO currency code in upper case; balance: must be an integer number of millis; maxbet: must be at least 1",
    );
  });

  it("mints a user_token the gateway's /auth accepts", async () => {
    const userId = await newPlayer();
    const minted = await operatorCall(api, "POST", `/v1/players/${userId}/tokens?operatorId=1`);
    expect(minted.status).toBe(201);
    expect(Date.parse(minted.json.expires_at as string)).toBeGreaterThan(Date.now());
    const auth = await callGateway(gateway, "/auth", {
      user_token: minted.json.user_token,
      session_token: "s-op-1",
      currency: "EUR",
    });
    expect(auth.json.data).toMatchObject({ user_id: userId, balance: 10_000 });
    expect((await operatorCall(api, "POST", "/v1/players/nobody/tokens?operatorId=1")).status).toBe(404);
  });

  it("adjustments: 201 applied, 200 on replay with the same answer, 409 on a changed body, 402 beyond the balance", async () => {
    const userId = await newPlayer(1_000);
    const credit = { amount: 5_000, reason: "welcome bonus", reference: "adj-1" };
    const first = await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, credit);
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      user_id: userId,
      amount: 5_000,
      new_balance: 6_000,
      reference: "adj-1",
      currency: "EUR",
    });
    const replay = await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, credit);
    expect(replay).toEqual({ status: 200, json: first.json });
    const changed = await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, {
      ...credit,
      amount: 9,
    });
    expect(changed.status).toBe(409);
    const tooMuch = await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, {
      amount: -7_000,
      reason: "chargeback",
      reference: "adj-2",
    });
    expect(tooMuch.status).toBe(402);
    const debit = await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, {
      amount: -2_500,
      reason: "fee",
      reference: "adj-3",
    });
    expect(debit.json.new_balance).toBe(3_500);
    expect(
      (
        await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, {
          amount: 0,
          reason: "x",
          reference: "r",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await operatorCall(api, "POST", "/v1/players/ghost/adjustments?operatorId=1", {
          amount: 1,
          reason: "x",
          reference: "r",
        })
      ).status,
    ).toBe(404);
    const summary = (await operatorGet(api, `/v1/players/${userId}?operatorId=1`)).json;
    expect(summary.balance).toBe(3_500);
  });

  it("adjustments and bets of one player, sent together, never interleave inside the ledger", async () => {
    const userId = await newPlayer(0);
    const minted = await operatorCall(api, "POST", `/v1/players/${userId}/tokens?operatorId=1`);
    await callGateway(gateway, "/auth", {
      user_token: minted.json.user_token,
      session_token: "s-op-mix",
      currency: "EUR",
    });
    const player = { tenantId: 1, userId, playerId: 0, sessionToken: "s-op-mix", currency: "EUR" };
    const work = Array.from({ length: 10 }, (_, index) => [
      operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, {
        amount: 1_000,
        reason: "top-up",
        reference: `mix-${index}`,
      }),
      callGateway(gateway, "/withdraw", betBody(player, { amount: 500, action_id: `mix-round-${index}` })),
    ]).flat();
    const statuses = (await Promise.all(work)).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    // Bets that found the balance short (402) are fine: what matters is the order.
    expect(statuses.every((status) => status === 201 || status === 200 || status === 402)).toBe(true);
    const summary = (await operatorGet(api, `/v1/players/${userId}?operatorId=1`)).json;
    const page = (await operatorCall(api, "GET", `/v1/players/${userId}/transactions?operatorId=1&limit=200`))
      .json;
    const items = page.items as Array<{ amount: number; balance_after: number }>;
    // Every balance_after follows from the entry before it, and the final one is the balance.
    let running = 0;
    for (const item of [...items].reverse()) {
      running += item.amount;
      expect(item.balance_after).toBe(running);
    }
    expect(summary.balance).toBe(running);
  });

  it("free-bet grants are usable by FREE_BET through the gateway", async () => {
    const userId = await newPlayer();
    const grant = await operatorCall(api, "POST", `/v1/players/${userId}/free-bets?operatorId=1`, {
      count: 1,
      game: "crashGame",
    });
    expect(grant).toMatchObject({ status: 201, json: { count: 1, game: "crashGame" } });
    const minted = await operatorCall(api, "POST", `/v1/players/${userId}/tokens?operatorId=1`);
    await callGateway(gateway, "/auth", {
      user_token: minted.json.user_token,
      session_token: "s-op-free",
      currency: "EUR",
    });
    const player = { tenantId: 1, userId, playerId: 0, sessionToken: "s-op-free", currency: "EUR" };
    const free = betBody(player, { action: "FREE_BET", amount: 0 });
    expect((await callGateway(gateway, "/withdraw", free)).status).toBe(200);
    expect((await callGateway(gateway, "/withdraw", { ...free, provider_tx_id: "second-free" })).status).toBe(
      402,
    );
    expect(
      (await operatorCall(api, "POST", `/v1/players/${userId}/free-bets?operatorId=1`, { count: 0 })).status,
    ).toBe(400);
  });

  it("transactions page newest first with a cursor that covers every entry once", async () => {
    const userId = await newPlayer(0);
    for (let index = 1; index <= 7; index++) {
      await operatorCall(api, "POST", `/v1/players/${userId}/adjustments?operatorId=1`, {
        amount: index,
        reason: "page",
        reference: `page-${index}`,
      });
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : "";
      const page = (
        await operatorCall(api, "GET", `/v1/players/${userId}/transactions?operatorId=1&limit=3${query}`)
      ).json;
      seen.push(...(page.items as Array<{ amount: number }>).map((item) => item.amount));
      cursor = page.next_cursor as string | null;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(pages).toBe(3);
    expect(
      (await operatorCall(api, "GET", `/v1/players/${userId}/transactions?operatorId=1&cursor=abc`)).status,
    ).toBe(400);
  });
});

describe("games and launch through the platform", () => {
  it("lists the operator's catalog through the cache, and invalidates it", async () => {
    const listed = await operatorCall(api, "GET", "/v1/games?operatorId=1");
    expect(listed.status).toBe(200);
    expect((listed.json.games as Array<{ id: string }>).map((game) => game.id)).toEqual([
      "crashGame",
      "fruitSlot",
      "blackjack",
    ]);
    expect(listed.json.stale).toBe(false);
    const again = await operatorCall(api, "GET", "/v1/games?operatorId=1");
    expect(again.json.fetched_at).toBe(listed.json.fetched_at);
    expect((await operatorCall(api, "POST", "/v1/games/cache/invalidate?operatorId=1")).status).toBe(204);
    const refreshed = await operatorCall(api, "GET", "/v1/games?operatorId=1");
    expect(Date.parse(refreshed.json.fetched_at as string)).toBeGreaterThanOrEqual(
      Date.parse(listed.json.fetched_at as string),
    );
  });

  it("launches a game: launch_url and session_token from the platform; demo refused locally; unknown game 404", async () => {
    const userId = await newPlayer();
    const launched = await operatorCall(api, "POST", `/v1/players/${userId}/launch?operatorId=1`, {
      game: "crashGame",
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
      returnUrl: "https://casino.test/lobby",
      language: "en",
    });
    expect(launched.status).toBe(200);
    expect(launched.json.launch_url).toBe(`${`http://127.0.0.1:3200`}/play/${launched.json.session_token}`);
    const page = await fetch(`http://127.0.0.1:${sim.port}/play/${launched.json.session_token}`);
    expect(await page.text()).toContain("Crash");
    const demo = await operatorCall(api, "POST", `/v1/players/${userId}/launch?operatorId=1`, {
      game: "fruitSlot",
      currency: "EUR",
      platform: "mobile",
      portalMode: "demo",
    });
    expect(demo).toEqual({ status: 400, json: { code: 400, message: "game fruitSlot has no demo mode" } });
    const unknown = await operatorCall(api, "POST", `/v1/players/${userId}/launch?operatorId=1`, {
      game: "noSuchGame",
      currency: "EUR",
      platform: "mobile",
      portalMode: "real",
    });
    expect(unknown.status).toBe(404);
  });
});

describe("the API itself", () => {
  it("serves its OpenAPI document and refuses every route without the bearer token", async () => {
    const document = (await (await fetch(`http://127.0.0.1:${api.port}/openapi.json`)).json()) as {
      openapi: string;
      paths: object;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/v1/players", "/v1/players/{user_id}/adjustments", "/v1/games"]),
    );
    for (const [method, path] of [
      ["POST", "/v1/players"],
      ["GET", "/v1/games"],
      ["POST", "/v1/players/x/adjustments"],
    ]) {
      const response = await fetch(`http://127.0.0.1:${api.port}${path}`, { method });
      expect([path, response.status]).toEqual([path, 401]);
    }
    const malformed = await fetch(`http://127.0.0.1:${api.port}/v1/players`, {
      method: "POST",
      headers: { authorization: "Bearer test-operator-token", "content-type": "application/json" },
      body: "{oops",
    });
    expect([malformed.status, await malformed.json()]).toEqual([
      400,
      { code: 400, message: "body is not valid JSON" },
    ]);
  });
});

describe("operator API metrics", () => {
  it("RED per route pattern (never an id), platform calls by call and status, catalog hits and misses", async () => {
    const userId = await newPlayer();
    await operatorCall(api, "POST", "/v1/games/cache/invalidate?operatorId=1");
    const before = await scrapeOf(api);
    expect((await operatorGet(api, `/v1/players/${userId}?operatorId=1`)).status).toBe(200);
    expect((await operatorGet(api, "/v1/players/nobody-here?operatorId=1")).status).toBe(404);
    expect((await operatorGet(api, "/v1/no-such-route")).status).toBe(404);
    expect((await operatorCall(api, "GET", "/v1/games?operatorId=1")).status).toBe(200);
    expect((await operatorCall(api, "GET", "/v1/games?operatorId=1")).status).toBe(200);
    const after = await scrapeOf(api);
    const delta = (name: string, labels: Record<string, string>) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);

    const requests = (labels: Record<string, string>) =>
      delta("wallet_operator_api_request_duration_seconds_count", labels);
    expect(requests({ route: "/v1/players/:user_id", method: "GET", status: "200" })).toBe(1);
    expect(requests({ route: "/v1/players/:user_id", method: "GET", status: "404" })).toBe(1);
    expect(requests({ route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(requests({ route: "/v1/games", method: "GET", status: "200" })).toBe(2);
    expect(delta("wallet_game_catalog_lookups_total", { result: "miss" })).toBe(1);
    expect(delta("wallet_game_catalog_lookups_total", { result: "hit" })).toBe(1);
    expect(delta("wallet_platform_request_duration_seconds_count", { call: "catalog", status: "200" })).toBe(
      1,
    );
    const labelValues = after.samples.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.some((value) => value.includes(userId) || value.includes("nobody-here"))).toBe(false);
    expect(sampleSum(after, "wallet_dependency_up", { dependency: "mysql" })).toBe(1);
  });
});

describe("edges (issue 19)", () => {
  it("two operators in one request, minbet above maxbet and a malformed %-escape are 400s that say why", async () => {
    const player = { username: "edge", currency: "EUR", maxbet: 1_000 };
    expect(await operatorCall(api, "POST", "/v1/players?operatorId=2", { ...player, operatorId: 1 })).toEqual(
      {
        status: 400,
        json: { code: 400, message: "operatorId: the body names 1 and the query 2; send one, or the same" },
      },
    );
    expect(await operatorCall(api, "POST", "/v1/players?operatorId=1", { ...player, minbet: 1_001 })).toEqual(
      {
        status: 400,
        json: { code: 400, message: "minbet: must not be above maxbet" },
      },
    );
    expect(await operatorGet(api, "/v1/players/%E0%A4%A?operatorId=1")).toEqual({
      status: 400,
      json: { code: 400, message: "the path holds a malformed %-escape" },
    });
  });

  it("what node's HTTP parser refuses is answered with the JSON envelope too, on both servers", async () => {
    for (const port of [api.port, gateway.port]) {
      const huge = await fetch(`http://127.0.0.1:${port}/healthz`, {
        headers: { "x-padding": "p".repeat(20_000) },
      });
      expect(huge.status).toBe(431);
      expect(huge.headers.get("content-type")).toBe("application/json");
      expect(await huge.json()).toEqual({ code: 431, message: "request headers too large" });
      const malformed = await rawRequest(port ?? 0, "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
      expect(malformed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(malformed.slice(malformed.indexOf("\r\n\r\n") + 4))).toEqual({
        code: 400,
        message: "malformed HTTP request",
      });
    }
  });
});

/** Writes `text` to a fresh socket and returns all the server sent back before closing it. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
  });
}

describe("operator tokens (issue 19)", () => {
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${api.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const tokens = (...args: string[]) =>
    run("pnpm", ["--silent", "tokens", ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: system.ledger.url },
    }).then(({ stdout }) =>
      stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    );

  it("the CLI refuses what it does not take in one line and exit 2, and a database it cannot read in one line and exit 1: never a stack trace", async () => {
    const refused = async (env: Record<string, string | undefined>, ...args: string[]) =>
      run("pnpm", ["--silent", "tokens", ...args], { cwd: repoRoot, env: { ...process.env, ...env } }).then(
        () => ({ code: 0, stdout: "", stderr: "" }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const own = { DATABASE_URL: system.ledger.url };
    for (const [args, first] of [
      [["list", "--bogus"], "Unknown option '--bogus'"],
      [["list", "extra"], 'unexpected argument "extra"'],
      [["revoke", "0123456789ab", "extra"], 'unexpected argument "extra"'],
    ] as const) {
      const answer = await refused(own, ...args);
      expect({ code: answer.code, stdout: answer.stdout, first: answer.stderr.split("\n")[0] }).toEqual({
        code: 2,
        stdout: "",
        first,
      });
      expect(answer.stderr).not.toMatch(/\n\s+at /);
    }
    const wrong = new URL(system.ledger.url);
    wrong.pathname = "/no_such_wallet_database";
    const unread = await refused({ DATABASE_URL: wrong.toString() }, "list");
    expect(unread.code).toBe(1);
    expect(unread.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^tokens: the database at [\d.]+:\d+ answered: .*no_such_wallet_database/),
    ]);
  });

  it("a token sees only its operator (404 for another's), a read token only reads, a revoked one is refused, two live at once; every write is audited with its token", async () => {
    const [writer] = await tokens("create", "--operator", "1", "--scope", "write", "--label", "cashier");
    const [reader] = await tokens("create", "--operator", "1", "--scope", "read");
    const [rotated] = await tokens("create", "--operator", "1", "--scope", "write");
    const [elsewhere] = await tokens("create", "--operator", "2", "--scope", "write");
    const userId = await newPlayer(5_000);
    const player = `/v1/players/${userId}`;

    expect((await call(writer.token, "GET", player)).json).toMatchObject({ user_id: userId, balance: 5_000 });
    // Another operator's token, and this operator's token naming another operator: 404, the same answer.
    expect(await call(elsewhere.token, "GET", `${player}?operatorId=1`)).toEqual({
      status: 404,
      json: { code: 404, message: "operator 1 not found" },
    });
    expect((await call(elsewhere.token, "GET", player)).status).toBe(404);
    expect((await call(writer.token, "GET", `${player}?operatorId=2`)).json).toEqual({
      code: 404,
      message: "operator 2 not found",
    });
    // A read token reads, and may not write.
    expect((await call(reader.token, "GET", player)).status).toBe(200);
    const refused = await call(reader.token, "POST", `${player}/adjustments`, {
      amount: 1,
      reason: "x",
      reference: "r0",
    });
    expect(refused).toEqual({ status: 403, json: { code: 403, message: "this token may only read" } });
    // Writes, by two live tokens (a rotation), each audited with the token that made it.
    const adjustment = { amount: 700, reason: "goodwill", reference: `audit-${userId}` };
    expect((await call(writer.token, "POST", `${player}/adjustments`, adjustment)).status).toBe(201);
    expect((await call(writer.token, "POST", `${player}/adjustments`, adjustment)).status).toBe(200);
    expect((await call(rotated.token, "POST", `${player}/free-bets`, { count: 2 })).status).toBe(201);
    expect(await tokens("revoke", writer.public_id)).toEqual([{ revoked: writer.public_id }]);
    // Refused from the next request on: a live token is read on every request.
    expect(await call(writer.token, "GET", player)).toEqual({
      status: 401,
      json: { code: 401, message: "missing or wrong bearer token" },
    });
    expect((await call(rotated.token, "GET", player)).json).toMatchObject({ balance: 5_700 });

    const audit = await call(reader.token, "GET", "/v1/audit?limit=10");
    const mine = (audit.json.actions as Array<Record<string, unknown>>).filter(
      (line) => line.subject === userId,
    );
    expect(mine.map((line) => [line.action, line.actor])).toEqual([
      ["free_bet_grant", `token:${rotated.public_id}`],
      ["adjustment", `token:${writer.public_id}`],
      ["create_player", "OPERATOR_API_TOKEN"],
    ]);
    expect((await call(elsewhere.token, "GET", "/v1/audit")).json.actions).toEqual([]);
    // Listed by public id, never by secret; only hashes are stored.
    const listed = await tokens("list", "--operator", "1");
    expect(listed.map((token) => token.public_id)).toEqual(
      expect.arrayContaining([writer.public_id, reader.public_id, rotated.public_id]),
    );
    expect(JSON.stringify(listed)).not.toContain(writer.token);
    expect(listed.find((token) => token.public_id === writer.public_id)?.revoked_at).not.toBeNull();
    expect(await storedOperatorTokenHash(system.ledger, rotated.public_id)).toBe(tokenHash(rotated.token));
  });
});
