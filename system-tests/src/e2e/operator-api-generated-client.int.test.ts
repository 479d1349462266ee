import { randomUUID } from "node:crypto";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { createOperatorToken, revokeOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiCheckRun } from "../harness/env.ts";
import type { OpenApiDocument } from "../harness/openapi-check/operations.ts";
import type { Credentials } from "../harness/openapi-check/requests.ts";
import { checkAgainstDocument, formatCounts, formatProblems } from "../harness/openapi-check/run-check.ts";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  runningTournament,
  testTenants,
  useTestSystem,
} from "../harness/system.ts";

/**
 * The operator API's served OpenAPI document, checked the way schemathesis checks one: a client
 * generated from the document itself calls every operation with valid requests and broken ones
 * (wrong types, out of range, missing or extra fields, bad path ids, another operator's ids, bodies
 * past 64 KiB, bodies that are not JSON or not readable, bad, absent and revoked tokens), and each
 * answer must be documented, with the documented body, never a 5xx, and a 4xx for what the
 * document refuses. Seeded: `OPENAPI_CHECK_SEED`, `OPENAPI_CHECK_REQUESTS` (harness/env.ts).
 */
const system = useTestSystem();
const run = openApiCheckRun(600);
/** The manual close's limit, small so a body past it is cheap to send (at least 1,024). */
const closeLimitBytes = 128 * 1024;
const [tenant1, tenant2] = testTenants;
if (!tenant1 || !tenant2) throw new Error("two test tenants expected");
let api: AppProcess;
const known = {
  users: [] as string[],
  rounds: [] as string[],
  ids: [] as number[],
  tokens: {} as Record<string, string>,
};

beforeAll(async () => {
  await system.startWorker();
  const gateway = await system.startGateway();
  const sim = await system.startPlatformSim(gateway);
  api = await system.startOperatorApi({
    PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}`,
    // A revoked token is refused at once, not after the cache's window.
    OPERATOR_API_TOKEN_CACHE_MS: "0",
    CLOSE_ROUND_BODY_LIMIT_BYTES: String(closeLimitBytes),
  });
  // What the generated requests name besides random ids: players of both operators, a round with a
  // bet and a refused close, a tournament, and tokens of each kind.
  const player = await authedPlayer(system, gateway, { balance: 1_000_000n });
  const other = await authedPlayer(system, gateway, { tenant: tenant2 });
  const roundId = `generated-${randomUUID().slice(0, 8)}`;
  await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: roundId }));
  await callGateway(gateway, "/deposit", closeRoundBody(roundId, [1_000, 5], [1.5]));
  const tournament = await runningTournament(system, "generated cup");
  const refused = (await (
    await fetch(`http://127.0.0.1:${api.port}/v1/refused-closes?operatorId=1`, {
      headers: { authorization: "Bearer test-operator-token" },
    })
  ).json()) as { refused_closes: Array<{ id: number }> };
  // Operator 1's ids most often, so most requests get past the checks of ids to the route's own work.
  known.users.push(player.userId, player.userId, player.userId, other.userId, "nobody");
  known.rounds.push(roundId, roundId, "nowhere");
  known.ids.push(tournament.tournamentId, ...refused.refused_closes.map((close) => close.id), 999_999);
  const db = system.ledger.db;
  const revoked = await createOperatorToken(db, { tenantId: 1, scope: "write" });
  await revokeOperatorToken(db, revoked.publicId);
  known.tokens = {
    write1: (await createOperatorToken(db, { tenantId: 1, scope: "write" })).token,
    read1: (await createOperatorToken(db, { tenantId: 1, scope: "read" })).token,
    write2: (await createOperatorToken(db, { tenantId: 2, scope: "write" })).token,
    revoked: revoked.token,
  };
}, 60_000);

/** An Authorization header (none when `header` gives none); `refused`: only a 401 may answer it. */
const bearer = (name: string, header: () => string | undefined, refused = false): Credentials => ({
  name,
  refused,
  headers: (): Record<string, string> => {
    const value = header();
    return value === undefined ? {} : { authorization: value };
  },
});

/** Who calls: mostly the token that acts for every operator, and every other kind of caller. */
const credentials = fc.oneof(
  { weight: 8, arbitrary: fc.constant(bearer("OPERATOR_API_TOKEN", () => "Bearer test-operator-token")) },
  {
    weight: 3,
    arbitrary: fc.constant(bearer("operator 1's write token", () => `Bearer ${known.tokens.write1}`)),
  },
  {
    weight: 2,
    arbitrary: fc.constant(bearer("operator 1's read token", () => `Bearer ${known.tokens.read1}`)),
  },
  {
    weight: 2,
    arbitrary: fc.constant(bearer("operator 2's write token", () => `Bearer ${known.tokens.write2}`)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      bearer("a revoked token", () => `Bearer ${known.tokens.revoked}`, true),
      bearer("no token", () => undefined, true),
      bearer("a wrong token", () => "Bearer wop_000000000000_wrong", true),
      bearer("the token as Basic", () => "Basic test-operator-token", true),
      bearer("Bearer alone", () => "Bearer ", true),
    ),
  },
);

/** Values worth sending beside random ones, by field or parameter name. */
const examples = (name: string): readonly unknown[] | undefined =>
  ({
    user_id: known.users,
    round_id: known.rounds,
    id: known.ids,
    operatorId: [1, 1, 1, 1, 2],
    game: ["crashGame", "fruitSlot"],
    currency: ["EUR"],
    platform: ["desktop"],
    // A reference now and then again: the same body replayed (200), or another one (409).
    reference: Array.from({ length: 20 }, (_, n) => `generated-ref-${n}`),
    amount: [700, -300, -1_000_000_000],
    maxbet: [100_000],
    minbet: [0, 100],
    balance: [0, 50_000],
    crashGameBets: [[1_000], "[1000]"],
    crashGameCashOutCoefficients: [[1.5], "[1.5]"],
  })[name];

describe("the operator API's served OpenAPI document, checked by a client generated from it", () => {
  it("every answer to generated requests is documented, fits its schema, and is never a 5xx", async () => {
    const document = (await (
      await fetch(`http://127.0.0.1:${api.port}/openapi.json`)
    ).json()) as OpenApiDocument;
    console.log(`generated client: OPENAPI_CHECK_SEED=${run.seed} OPENAPI_CHECK_REQUESTS=${run.requests}`);
    const report = await checkAgainstDocument({
      baseUrl: `http://127.0.0.1:${api.port}`,
      document,
      hooks: {
        credentials,
        examples,
        bodyLimitBytes: (operation) =>
          operation.path === "/v1/rounds/{round_id}/close" ? closeLimitBytes : 64 * 1024,
      },
      ...run,
    });
    console.log(formatCounts(report));
    expect(formatProblems(report)).toEqual([]);
    // Not vacuous: every documented operation was called, and succeeded at least once.
    const routes = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
    expect(report.counts.size).toBe(routes.length);
    const succeeded = [...report.counts].filter(([, byStatus]) =>
      [...byStatus.keys()].some((status) => status < 300),
    );
    expect(succeeded.map(([route]) => route)).toEqual([...report.counts.keys()]);
  }, 120_000);
});
