import { randomUUID } from "node:crypto";
import { tokenHash } from "@wallet/contracts/hash";
import { sign } from "@wallet/contracts/hmac";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { holdWalletLock } from "@wallet/ledger/testing/locks";
import { storedSessionTokens } from "@wallet/ledger/testing/stored-tokens";
import { storedStatuses, tenantFootprint } from "@wallet/ledger/testing/tenant-reads";
import { createOperatorToken, revokeOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import { beforeAll, describe, expect, it } from "vitest";
import { mintAuthBody } from "../harness/authed-player.ts";
import { operatorToken, testTenants } from "../harness/fault-system.ts";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { bearerRefusals } from "./bearer-refusals.ts";
import { isolationFootprint } from "./isolation-footprint.ts";
import { leaksIn, logged, loggedAgain, secretsToFind } from "./log-scan.ts";
import { oneBitOff, signatureMismatches } from "./near-misses.ts";
import { OperatorApiClient } from "./operator-api.ts";
import { playerAndRoundRequests, routeRequest, servedRoutes } from "./operator-routes.ts";
import { perPlayerCallbacks } from "./per-player-callbacks.ts";
import { recordingClient } from "./recording-client.ts";

// Debug level: the secrets-in-logs check at the end covers the apps' chattiest logs.
const running = useFaultSystem({ workers: 1, players: 4, env: { LOG_LEVEL: "debug" } });

const [tenant1, tenant2] = testTenants;
if (!tenant1 || !tenant2) throw new Error("the suite needs two test tenants");

/** Every secret this file sends is remembered in `sent`: the last test checks that no app ever logged one. */
const { sent, call, withToken, remembered, sessionPlayer } = recordingClient(running);

let operatorApi: OperatorApiClient;
beforeAll(async () => {
  const { system, sim } = running;
  const api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
  operatorApi = new OperatorApiClient(api.port ?? 0);
});

const roundOf = () => `security-${randomUUID().slice(0, 8)}`;

describe("tenant isolation", () => {
  it("tenant 1's key cannot touch tenant 2's player: 404 with the envelope, nothing moves; tenant 2's key then can", async () => {
    const { ledger } = running.system;
    const player = await sessionPlayer(tenant2, 100_000n);
    const roundId = roundOf();
    // Every per-player callback kind, naming tenant 2's player by its user token, user_id or session.
    const { callbacks: perPlayer, moneyTxIds } = perPlayerCallbacks(player, roundId);
    const close = closeRoundBody(roundId, [1_000, 2_000], [5, 0], tenant2.operatorId);

    const before = await isolationFootprint(ledger, [tenant1, tenant2], player.playerId);
    for (const { label, path, body, message } of perPlayer) {
      const answer = await call(path, body, { tenant: tenant1 });
      // Exactly the envelope: no `data`, so not even tenant 2's balance is disclosed.
      expect({ label, status: answer.status, json: answer.json }).toEqual({
        label,
        status: 404,
        json: { code: 404, message },
      });
    }
    // CLOSE_ROUND names no player: the public key alone says whose round it is (contract B3b). Under
    // tenant 1's key it is tenant 1's notification about a round tenant 1 had no bets in.
    const foreignClose = await call("/deposit", close, { tenant: tenant1 });
    expect([foreignClose.status, foreignClose.json.data?.provider_tx_id]).toEqual([
      200,
      close.provider_tx_id,
    ]);

    // Tenant 2: not one row more or less anywhere, the same balance and journal.
    expect(await tenantFootprint(ledger, tenant2.operatorId)).toEqual(before.tenant2);
    expect(await balanceOf(ledger, player.playerId)).toBe(before.balance);
    expect(await journalOf(ledger, player.playerId)).toEqual(before.journal);
    // Tenant 1: no player, token, session, bet or journal line; only the stored answers the contract's
    // idempotency needs (the refusals, kept so a retry gets the same 404) and its own round close.
    const after1 = await tenantFootprint(ledger, tenant1.operatorId);
    expect(after1).toEqual({
      ...before.tenant1,
      rounds: before.tenant1.rounds + 1,
      round_closes: before.tenant1.round_closes + 1,
      outbox: before.tenant1.outbox + 1,
      idempotency_records: before.tenant1.idempotency_records + moneyTxIds.length + 1,
    });
    expect(await storedStatuses(ledger, tenant1.operatorId, [...moneyTxIds, close.provider_tx_id])).toEqual({
      ...Object.fromEntries(moneyTxIds.map((id) => [id, 404])),
      [close.provider_tx_id]: 200,
    });

    // The same bytes under tenant 2's own key are all valid: only the tenant differed.
    const balances: Record<string, unknown> = {};
    for (const { label, path, body } of perPlayer) {
      const answer = await call(path, body, { tenant: tenant2 });
      expect([label, answer.status]).toEqual([label, 200]);
      balances[label] =
        answer.json.data?.new_balance ?? answer.json.data?.balance ?? answer.json.data?.amount;
    }
    expect(balances).toEqual({
      auth: 100_000,
      "BET a": 99_000,
      "BET b": 97_000,
      WIN: 102_000,
      ROLL_BACK: 104_000,
      "balance by user_id": 104_000,
      "balance by session": 104_000,
    });
    const ownClose = await call("/deposit", close, { tenant: tenant2 });
    expect(ownClose.status).toBe(200);
    // Tenant 2's close is a close of its own, not tenant 1's stored answer replayed.
    expect(ownClose.json.data?.operator_tx_id).not.toBe(foreignClose.json.data?.operator_tx_id);
    expect(await balanceOf(ledger, player.playerId)).toBe(104_000n);
    expect((await journalOf(ledger, player.playerId)).map((line) => line.kind)).toEqual([
      ...before.journal.map((line) => line.kind),
      "BET",
      "BET",
      "WIN",
      "ROLL_BACK",
    ]);
  });

  it("the operator API: operatorId scopes every player and round route; another operator's player is 404", async () => {
    const { ledger } = running.system;
    const player = await sessionPlayer(tenant2, 50_000n);
    const roundId = roundOf();
    expect(
      (await call("/withdraw", betBody(player, { action_id: roundId }), { tenant: tenant2 })).status,
    ).toBe(200);
    const auth = withToken(operatorToken);
    const before = await isolationFootprint(ledger, [tenant1, tenant2], player.playerId);
    const user = encodeURIComponent(player.userId);
    const reference = `ref-${randomUUID()}`;
    const asOperator1 = playerAndRoundRequests(player.userId, roundId, reference);
    for (const [method, path, body, message] of asOperator1) {
      const answer = await operatorApi.request(method, `${path}?operatorId=1`, auth, body);
      expect({ method, path, status: answer.status, body: JSON.parse(answer.text) }).toEqual({
        method,
        path,
        status: 404,
        body: { code: 404, message },
      });
    }
    // Nothing minted, granted or credited for either operator.
    expect(await tenantFootprint(ledger, tenant2.operatorId)).toEqual(before.tenant2);
    expect(await balanceOf(ledger, player.playerId)).toBe(before.balance);
    // Operator 1 keeps only the adjustment's refusal, under its reference like a callback's (a retry gets the same 404).
    expect(await tenantFootprint(ledger, tenant1.operatorId)).toEqual({
      ...before.tenant1,
      idempotency_records: before.tenant1.idempotency_records + 1,
    });
    const adjustmentKey = `operator-adjustment:${reference}`;
    expect(await storedStatuses(ledger, tenant1.operatorId, [adjustmentKey])).toEqual({
      [adjustmentKey]: 404,
    });

    // The same reads as operator 2 find them: the 404s were the scope, not bad requests.
    const own = await operatorApi.request("GET", `/v1/players/${user}?operatorId=2`, auth);
    expect([own.status, JSON.parse(own.text).balance]).toEqual([200, 49_000]);
    const round = await operatorApi.request("GET", `/v1/rounds/${roundId}?operatorId=2`, auth);
    expect([round.status, JSON.parse(round.text).status]).toEqual([200, "open"]);
  });
});

describe("per-operator tokens (issue 19)", () => {
  it("operator 2's token: its own player 200; operator 1's player, named or not, 404 with nothing written; revoked, 401", async () => {
    const { ledger } = running.system;
    const theirs = await sessionPlayer(tenant2, 30_000n);
    const victim = await sessionPlayer(tenant1, 30_000n);
    const { token, publicId } = await createOperatorToken(ledger.db, {
      tenantId: tenant2.operatorId,
      scope: "write",
    });
    const auth = withToken(token);
    const own = await operatorApi.request("GET", `/v1/players/${encodeURIComponent(theirs.userId)}`, auth);
    expect([own.status, JSON.parse(own.text).balance]).toEqual([200, 30_000]);
    const before = await isolationFootprint(ledger, [tenant1, tenant2], victim.playerId);
    const reference = `ref-${randomUUID()}`;
    for (const [method, path, body] of playerAndRoundRequests(victim.userId, roundOf(), reference)) {
      for (const query of ["?operatorId=1", ""]) {
        const answer = await operatorApi.request(method, `${path}${query}`, auth, body);
        expect({ path, query, status: answer.status }).toEqual({ path, query, status: 404 });
      }
    }
    // Operator 1 saw nothing: not even a stored refusal.
    expect(await tenantFootprint(ledger, tenant1.operatorId)).toEqual(before.tenant1);
    expect(await balanceOf(ledger, victim.playerId)).toBe(30_000n);
    expect(await revokeOperatorToken(ledger.db, publicId)).toBe(true);
    // Refused from the next request on: a live token is read on every request, never remembered.
    expect(
      (await operatorApi.request("GET", `/v1/players/${encodeURIComponent(theirs.userId)}`, auth)).status,
    ).toBe(401);
  });
});

describe("look-alike ids and tokens at rest (issue 19)", () => {
  it("a BET for `<user_id> ` is another player's (404, nothing debited); the database holds no usable session token", async () => {
    const { ledger } = running.system;
    const player = await sessionPlayer(tenant1, 10_000n);
    const lookalike = await call("/withdraw", betBody(player, { user_id: `${player.userId} ` }), {
      tenant: tenant1,
    });
    expect(lookalike.status).toBe(404);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
    const stored = await storedSessionTokens(ledger, player.playerId);
    expect(stored).toEqual([tokenHash(player.sessionToken)]);
  });
});

describe("a ROLL_BACK's tombstone (issue 19)", () => {
  it("is its player's: another player's BET under the tombstoned id is a 409 that moves nothing", async () => {
    const { ledger } = running.system;
    const owner = await sessionPlayer(tenant1, 20_000n);
    const stranger = await sessionPlayer(tenant1, 20_000n);
    const lost = betBody(owner, { amount: 3_000, action_id: roundOf() });
    // The rollback comes first: 200, no credit, a tombstone for the owner's bet.
    const rollback = {
      ...betBody(owner, { amount: 3_000, action_id: lost.action_id }),
      action: "ROLL_BACK",
      provider_tx_id: `${String(lost.provider_tx_id)}-rb`,
      withdraw_provider_tx_id: lost.provider_tx_id,
    };
    expect((await call("/deposit", rollback, { tenant: tenant1 })).status).toBe(200);
    const theirs = { ...betBody(stranger, { amount: 3_000 }), provider_tx_id: lost.provider_tx_id };
    const answer = await call("/withdraw", theirs, { tenant: tenant1 });
    expect({ status: answer.status, message: answer.json.message }).toEqual({
      status: 409,
      message: `bet ${String(lost.provider_tx_id)} was rolled back for another player before it arrived`,
    });
    expect(await balanceOf(ledger, stranger.playerId)).toBe(20_000n);
    expect(await balanceOf(ledger, owner.playerId)).toBe(20_000n);
    expect((await journalOf(ledger, stranger.playerId)).map((line) => line.kind)).toEqual(["OPENING"]);
  });
});

describe("the operator API's bearer token", () => {
  it("every route refuses a missing, wrong, near-miss or wrongly-schemed token: 401, no echo, nothing written", async () => {
    const { ledger } = running.system;
    // What apps/operator-api/src/routes serves: the document must not have lost one.
    const routes = await operatorApi.listedRoutes();
    expect(routes).toEqual(expect.arrayContaining(servedRoutes));

    const player = await sessionPlayer(tenant2, 50_000n);
    const newUserId = `never-created-${randomUUID().slice(0, 8)}`;
    // Each with a body that would succeed with the right token (checked below for the player creation).
    const concrete = (route: string) => routeRequest(route, player.userId, newUserId);
    const refusals = bearerRefusals(operatorToken, withToken);
    const before = await tenantFootprint(ledger, tenant2.operatorId);
    let refused = 0;
    for (const route of routes) {
      const { method, path, body } = concrete(route);
      for (const [label, headers] of refusals) {
        const answer = await operatorApi.request(method, path, headers, body);
        expect({ route, label, status: answer.status, body: JSON.parse(answer.text) }).toEqual({
          route,
          label,
          status: 401,
          body: { code: 401, message: "missing or wrong bearer token" },
        });
        // The answer says nothing about the token: neither what was sent nor the real one.
        for (const secret of [operatorToken, ...Object.values(headers)])
          expect(answer.text).not.toContain(secret);
        refused += 1;
      }
    }
    expect(refused).toBe(routes.length * refusals.length);
    expect(await tenantFootprint(ledger, tenant2.operatorId)).toEqual(before);
    expect(
      await playerSummary({ ctx: ledger.ctx, input: { tenantId: 2, userId: newUserId } }),
    ).toBeUndefined();
    expect(await balanceOf(ledger, player.playerId)).toBe(50_000n);

    // The right token with the very same request creates the player: only the token was wrong.
    const { method, path, body } = concrete("POST /v1/players");
    const created = await operatorApi.request(method, path, withToken(operatorToken), body);
    expect([created.status, JSON.parse(created.text).user_id]).toEqual([201, newUserId]);
  });
});

describe("constant-time comparison, behaviourally", () => {
  // Timings cannot tell at this scale (the HMAC dominates, and the machine is shared), so this shows
  // the observable half: a near miss anywhere in the secret is refused exactly like a wild guess, and
  // (from the gateway's metrics) every one reached the digest comparison rather than an early exit.
  // constant-time.test.ts shows the other half from the sources.
  it("a signature wrong in its first byte, its last byte or all of them is refused the same way", async () => {
    const { system } = running;
    const player = await sessionPlayer(tenant1, 10_000n);
    const body = { user_id: player.userId, currency: "EUR" };
    const good = sign(JSON.stringify(body), tenant1.secretKey);
    const near: Array<[string, string]> = [
      ...oneBitOff(good),
      ["another tenant's secret", sign(JSON.stringify(body), tenant2.secretKey)],
    ];
    const metricsPort = system.gateway?.metricsPort;
    if (metricsPort === undefined) throw new Error("the gateway logged no metrics port");
    const mismatchesBefore = await signatureMismatches(metricsPort);

    const answers = [];
    for (const [label, signature] of near) {
      const answer = await call("/balance", body, { tenant: tenant1, signature });
      answers.push({ label, status: answer.status, text: answer.text });
    }
    expect(answers).toEqual(
      near.map(([label]) => ({
        label,
        status: 401,
        text: JSON.stringify({ code: 401, message: "invalid or missing X-Signature" }),
      })),
    );
    expect((await signatureMismatches(metricsPort)) - mismatchesBefore).toBe(near.length);
    // The untouched signature passes: the refusals were about the bytes changed.
    const control = await call("/balance", body, { tenant: tenant1 });
    expect([control.status, control.json.data?.amount]).toEqual([200, 10_000]);
  });

  it("a token wrong in its first or last character, or of another length, is refused the same way", async () => {
    const variants = [
      `x${operatorToken.slice(1)}`,
      `${operatorToken.slice(0, -1)}x`,
      `${operatorToken}-longer`,
      operatorToken.slice(0, 4),
    ];
    const answers = new Set<string>();
    for (const token of variants) {
      const answer = await operatorApi.request("GET", "/v1/games?operatorId=1", withToken(token));
      answers.add(`${answer.status} ${answer.text}`);
    }
    // One answer for all of them (a length mismatch reaching timingSafeEqual would have been a 503).
    expect([...answers]).toEqual([
      `401 ${JSON.stringify({ code: 401, message: "missing or wrong bearer token" })}`,
    ]);
  });
});

describe("secrets never in logs", () => {
  // Last in the file: it drives the error paths, then reads everything every app logged since boot.
  it("no app logs a secret, even on its error paths and at debug level", async () => {
    const { system, sim, players } = running;
    const { ledger } = system;

    // 1. A statement that fails with secrets among its parameters: a BET waiting on a wallet row lock
    //    times out (every attempt), so the worker logs the failed statement, session token included.
    const victim = await sessionPlayer(tenant1, 20_000n);
    const failures = logged(system, "ledger verb failed").length;
    const lock = await holdWalletLock(ledger, victim.playerId);
    try {
      const bet = await call("/withdraw", betBody(victim, { action_id: roundOf() }), { tenant: tenant1 });
      expect(bet.status).toBe(503);
      await loggedAgain(system, "ledger verb failed", failures);
    } finally {
      await lock.release();
    }
    expect(await balanceOf(ledger, victim.playerId)).toBe(20_000n);

    // 2. Play, with MariaDB killed and restarted; meanwhile a token-bearing /auth that cannot be
    //    served, a bad signature over a token, and the operator API with a wrong and a right token.
    const authBody = remembered(await mintAuthBody(system, victim));
    const victimPath = `/v1/players/${victim.userId}?operatorId=1`;
    const apiErrors = logged(system, "operator API request failed").length;
    const result = await underLoad(system, sim, players, "security-logs-mariadb-kill", async () => {
      await system.mariadb.signal("SIGKILL");
      expect((await call("/auth", authBody, { tenant: tenant1 })).status).toBe(503);
      const forgery = sign("forged", tenant1.secretKey);
      expect((await call("/auth", authBody, { tenant: tenant1, signature: forgery })).status).toBe(401);
      // A token of a minted token's shape that is not OPERATOR_API_TOKEN is looked up by its hash in
      // MariaDB (issue 19's per-operator tokens): with MariaDB down it cannot be judged, so it is a
      // 503, not a 401, and its lookup's error is logged (the scan below proves the token is not in
      // that line). One of any other shape is a 401 without a read (issue 40), MariaDB or not.
      const guess = `wop_0123456789ab_${"g".repeat(43)}`;
      const wrong = await operatorApi.request("GET", victimPath, withToken(guess));
      expect(wrong.status).toBe(503);
      expect((await operatorApi.request("GET", victimPath, withToken("guess-1234"))).status).toBe(401);
      const down = await operatorApi.request("GET", victimPath, withToken(operatorToken));
      expect(down.status).toBe(503);
      await system.mariadb.restart();
    });
    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(logged(system, "operator API request failed").length).toBeGreaterThan(apiErrors);
    // The same /auth, served now: the token was real.
    expect((await call("/auth", authBody, { tenant: tenant1 })).status).toBe(200);

    // 3. Every line every app wrote (the killed MariaDB's own log files are not app logs).
    const lines = system.allLogs();
    // The ledger keeps only tokens' hashes (issue 19): the tokens to look for are those this file sent.
    const secrets = secretsToFind(system, sent);
    const leaks = leaksIn(lines, secrets);
    console.log(
      `[faults] security: scanned ${lines.length} log lines of ${system.processes.length} processes ` +
        `for ${secrets.length} secrets; ${leaks.length} leaked`,
    );
    expect(leaks).toEqual([]);
    // The scan saw what it claims to: debug lines, and the error paths driven above.
    expect(lines.some((line) => line.includes('"level":20'))).toBe(true);
    const verbFailures = logged(system, "ledger verb failed");
    expect(verbFailures.length).toBeGreaterThan(failures);
    // …and the failed statement's error was logged without the statement, whose values mysql2 inlines
    // (the group commit binds client-side; packages/telemetry/src/logger.ts drops `sql`).
    const lockTimeouts = verbFailures.filter((line) => line.includes('"errno":1205'));
    expect(lockTimeouts.length).toBeGreaterThan(0);
    expect(lockTimeouts.some((line) => line.includes('"sql"'))).toBe(false);
    expect(sent.signatures.size).toBeGreaterThan(10);
  });
});
