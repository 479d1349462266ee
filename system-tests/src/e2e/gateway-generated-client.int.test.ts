import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sign } from "@wallet/contracts/hmac";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiCheckRun } from "../harness/env.ts";
import type { Answer } from "../harness/openapi-check/answer-check.ts";
import type { OpenApiDocument } from "../harness/openapi-check/operations.ts";
import type { Credentials } from "../harness/openapi-check/requests.ts";
import { checkAgainstDocument, formatCounts, formatProblems } from "../harness/openapi-check/run-check.ts";
import { type AppProcess, authedPlayer, callGateway, testTenants, useTestSystem } from "../harness/system.ts";

/**
 * The callbacks' OpenAPI document (`GET /openapi.json` on the gateway, published as
 * docs/schemas/callbacks.openapi.json), checked by a client generated from it, as the operator API's
 * is: bodies generated from each callback's schema, valid and broken, each signed with a test
 * operator's secret, or not signed, or signed wrong; every answer must be documented with its body,
 * and never a 5xx but a 503 for a genuine deadline (the deadline here is long, so none is expected).
 * Seeded: `OPENAPI_CHECK_SEED`, `OPENAPI_CHECK_REQUESTS` (harness/env.ts).
 */
const system = useTestSystem({ deadlineMs: 10_000 });
const run = openApiCheckRun(400);
/** A CLOSE_ROUND's limit, small so a close past it is cheap to send. */
const closeLimitBytes = 256 * 1024;
const [tenant1, tenant2] = testTenants;
if (!tenant1 || !tenant2) throw new Error("two test tenants expected");
let gateway: AppProcess;
const known: Record<string, unknown[]> = {};

beforeAll(async () => {
  await system.startWorker();
  gateway = await system.startGateway({ CLOSE_ROUND_BODY_LIMIT_BYTES: String(closeLimitBytes) });
  // What generated bodies name besides random ids: players with live sessions (of both operators),
  // user tokens not used yet, bets to settle and their rounds.
  const players = [
    await authedPlayer(system, gateway, { balance: 1_000_000n }),
    await authedPlayer(system, gateway, { balance: 1_000_000n }),
    await authedPlayer(system, gateway, { tenant: tenant2 }),
  ];
  const [first] = players;
  if (!first) throw new Error("no player");
  const bets = [1, 2, 3].map((n) => betBody(first, { amount: 1_000, action_id: `generated-round-${n}` }));
  for (const bet of bets) expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(200);
  const tokens = await Promise.all(
    players.map(
      async (player) =>
        (
          await mintUserToken({
            ctx: system.ledger.ctx,
            input: { tenantId: player.tenantId, userId: player.userId, ttlSeconds: 600 },
          })
        ).userToken,
    ),
  );
  // Operator 1's own most often, so most bodies get past the checks of ids to the ledger's rules.
  Object.assign(known, {
    user_id: [first.userId, first.userId, ...players.map((player) => player.userId), "nobody"],
    session_token: [first.sessionToken, first.sessionToken, ...players.map((player) => player.sessionToken)],
    user_token: [...tokens, "no-such-token"],
    action_id: [...bets.map((bet) => bet.action_id), "generated-round-9"],
    withdraw_provider_tx_id: bets.map((bet) => bet.provider_tx_id),
    // A few keys again and again: a resend, or the same key with other bytes (409).
    provider_tx_id: Array.from({ length: 40 }, (_, n) => `generated-tx-${n}`),
    amount: [0, 100, 1_000, 5_000],
    currency: ["EUR"],
    game: ["crashGame"],
    provider: ["platform-sim"],
    platform: ["desktop"],
    attributes: [
      [],
      [
        { name: "crashGameCashOutCoefficients", value: "[1.5, 0]" },
        { name: "crashGameBets", value: "[1000, 500]" },
      ],
    ],
  });
}, 60_000);

/** Signed with `secret` under `publicKey`; `refused`: the gateway must answer it 401. */
const signed = (
  name: string,
  publicKey: string | undefined,
  signature: (body: Buffer) => string | undefined,
  refused = true,
): Credentials => ({
  name,
  refused,
  headers: (body) => {
    const headers: Record<string, string> = {};
    if (publicKey !== undefined) headers["x-public-key"] = publicKey;
    const value = signature(body ?? Buffer.alloc(0));
    if (value !== undefined) headers["x-signature"] = value;
    return headers;
  },
});

/** The signing hook: each body signed as the platform signs it, mostly; unsigned and mis-signed too. */
const credentials = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constant(
      signed("operator 1 signs", tenant1.publicKey, (body) => sign(body, tenant1.secretKey), false),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constant(
      signed("operator 2 signs", tenant2.publicKey, (body) => sign(body, tenant2.secretKey), false),
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      signed("no X-Signature", tenant1.publicKey, () => undefined),
      signed("another body's signature", tenant1.publicKey, () => randomBytes(32).toString("base64")),
      signed("signed with operator 2's secret", tenant1.publicKey, (body) => sign(body, tenant2.secretKey)),
      signed("a signature that is not Base64 of 32 bytes", tenant1.publicKey, () => "c2lnbmF0dXJl"),
      signed("an unknown X-Public-Key", "no-such-key", (body) => sign(body, tenant1.secretKey)),
      signed("no X-Public-Key", undefined, (body) => sign(body, tenant1.secretKey)),
    ),
  },
);

/** A 503 the wallet gives when the ledger does not answer within the deadline: transient by nature. */
const deadline = (answer: Answer) =>
  answer.status === 503 && answer.bytes.toString("utf8").includes("did not answer in time");

describe("the callbacks' OpenAPI document, checked by a client generated from it", () => {
  it("is served by the gateway as published in docs/schemas", async () => {
    const served = await (await fetch(`http://127.0.0.1:${gateway.port}/openapi.json`)).json();
    const published = JSON.parse(
      readFileSync(new URL("../../../docs/schemas/callbacks.openapi.json", import.meta.url), "utf8"),
    );
    expect(served).toEqual(published);
  });

  it("every answer to generated, signed requests is documented, fits its schema, and is never a 5xx", async () => {
    const document = (await (
      await fetch(`http://127.0.0.1:${gateway.port}/openapi.json`)
    ).json()) as OpenApiDocument;
    console.log(`generated client: OPENAPI_CHECK_SEED=${run.seed} OPENAPI_CHECK_REQUESTS=${run.requests}`);
    const deadlines: string[] = [];
    const report = await checkAgainstDocument({
      baseUrl: `http://127.0.0.1:${gateway.port}`,
      document,
      hooks: {
        credentials,
        examples: (name) => known[name],
        bodyLimitBytes: (operation, body) =>
          operation.path === "/deposit" && (body as { action?: unknown } | null)?.action === "CLOSE_ROUND"
            ? closeLimitBytes
            : 64 * 1024,
      },
      tolerated5xx: deadline,
      onAnswer: (request, answer) => {
        if (deadline(answer)) deadlines.push(`${request.operation.route} (${request.how})`);
      },
      ...run,
    });
    console.log(formatCounts(report));
    if (deadlines.length) console.warn(`503 at the deadline, tolerated: ${deadlines.join(", ")}`);
    expect(formatProblems(report)).toEqual([]);
    // Not vacuous: each callback was called, and answered 200 at least once.
    expect([...report.counts.keys()]).toEqual([
      "POST /auth",
      "POST /withdraw",
      "POST /deposit",
      "POST /balance",
    ]);
    for (const [route, byStatus] of report.counts)
      expect({ route, ok: byStatus.has(200) }).toEqual({ route, ok: true });
  }, 120_000);
});
