import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  eventually,
  operatorGet,
  scrapeOf,
  sideEffectsApplied,
  testTenants,
  useTestSystem,
} from "../harness/system.ts";

const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
let worker: AppProcess;
beforeAll(async () => {
  worker = await system.startWorker({ LOYALTY_POINTS_PER_1000: "1" });
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const allApplied = (roundId: string, withinMs?: number) => sideEffectsApplied(api, roundId, withinMs);

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  return sampleSum(await scrapeOf(worker), name, labels);
}

describe("side effects of CLOSE_ROUND, through the real processes", () => {
  it("three players: loyalty and rg exactly as computed by hand; a close delivered twice applies once", async () => {
    const round = "e2e-round-three";
    const [ann, ben, cid] = await Promise.all(
      [0, 1, 2].map(() => authedPlayer(system, gateway, { balance: 50_000n })),
    );
    if (!ann || !ben || !cid) throw new Error("players");
    // Ann stakes 2500 and cashes out 2x (5000); Ben stakes 4000 and loses; Cid stakes 1500, rolled back.
    const annBet = betBody(ann, { amount: 2_500, action_id: round });
    const benBet = betBody(ben, { amount: 4_000, action_id: round });
    const cidBet = betBody(cid, { amount: 1_500, action_id: round });
    for (const bet of [annBet, benBet, cidBet])
      expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(200);
    expect(
      (await callGateway(gateway, "/deposit", settleBody(ann, annBet, "WIN", { amount: 5_000 }))).status,
    ).toBe(200);
    expect((await callGateway(gateway, "/deposit", settleBody(cid, cidBet, "ROLL_BACK"))).status).toBe(200);

    const close = closeRoundBody(round, [2_500, 4_000], [2, 0]);
    const first = await callGateway(gateway, "/deposit", close);
    const second = await callGateway(gateway, "/deposit", close);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);

    const status = await allApplied(round);
    expect(status).toMatchObject({
      status: "closed",
      reconciliation: { status: "matched", differences: [] },
      report: {
        betCount: 2,
        byCurrency: [{ currency: "EUR", betCount: 2, stakeSum: "6500", payoutSum: "5000", ggr: "1500" }],
      },
    });
    const player = async (userId: string) =>
      (await operatorGet(api, `/v1/players/${userId}?operatorId=1`)).json;
    expect(await player(ann.userId)).toMatchObject({
      loyalty_points: 2,
      balance: 52_500,
      rg: [{ staked: 2_500, won: 5_000, net_loss: -2_500, rounds: 1 }],
    });
    expect(await player(ben.userId)).toMatchObject({
      loyalty_points: 4,
      rg: [{ staked: 4_000, won: 0, net_loss: 4_000, rounds: 1 }],
    });
    expect(await player(cid.userId)).toMatchObject({ loyalty_points: 0, rg: [] });
    expect(await countRows(system.ledger, "outbox")).toBe(1); // one row owes the four effects
  });

  it("the same close 20 times at once: one set of effects", async () => {
    const round = "e2e-round-twenty";
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 3_000, action_id: round }));
    const close = closeRoundBody(round, [3_000], [0]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callGateway(gateway, "/deposit", close)),
    );
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    await allApplied(round);
    const summary = (await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json;
    expect(summary).toMatchObject({ loyalty_points: 3, rg: [{ staked: 3_000, rounds: 1 }] });
    expect(await metric("wallet_side_effects_total", { topic: "loyalty", outcome: "applied" })).toBe(2);
  });

  it("misaligned arrays: 400, and no close, no outbox row, no effect", async () => {
    const round = "e2e-round-misaligned";
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: round }));
    const before = await countRows(system.ledger, "outbox");
    const answer = await callGateway(gateway, "/deposit", closeRoundBody(round, [1_000, 2_000], [0]));
    expect(answer.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await countRows(system.ledger, "outbox")).toBe(before);
    const { json } = await operatorGet(api, `/v1/rounds/${round}?operatorId=1`);
    expect(json).toMatchObject({ status: "open", side_effects: null, reconciliation: null });
    expect((await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json).toMatchObject({
      loyalty_points: 0,
      rg: [],
    });
  });

  it("a close naming bets we never saw is a recorded mismatch and counted, never a failure", async () => {
    const round = "e2e-round-mismatch";
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: round }));
    const before = await metric("wallet_reconciliation_mismatches_total");
    expect((await callGateway(gateway, "/deposit", closeRoundBody(round, [1_000, 777], [0, 0]))).status).toBe(
      200,
    );
    const status = await allApplied(round);
    expect(status.reconciliation).toEqual({
      status: "mismatch",
      revision: 1,
      anomalies: [],
      differences: [
        { kind: "platform_bet_not_found", index: 1, stake: 777, coefficient: 0, expectedPayout: 0 },
      ],
      summary: {
        platform_bet_not_found: { count: 1, stake: "777", payout: "0" },
        operator_bet_not_in_close: { count: 0, stake: "0", payout: "0" },
      },
    });
    expect(await metric("wallet_reconciliation_mismatches_total")).toBe(before + 1);
  });
});

describe("attribution across operators, and tournaments", () => {
  it("two tenants in one round: each tenant's close covers only its own players", async () => {
    const round = "e2e-round-shared";
    const [ours, theirs] = await Promise.all([
      authedPlayer(system, gateway, { balance: 50_000n, tenant: testTenants[0] }),
      authedPlayer(system, gateway, { balance: 50_000n, tenant: testTenants[1] }),
    ]);
    await callGateway(gateway, "/withdraw", betBody(ours, { amount: 2_000, action_id: round }), {
      tenant: testTenants[0],
    });
    await callGateway(gateway, "/withdraw", betBody(theirs, { amount: 9_000, action_id: round }), {
      tenant: testTenants[1],
    });
    for (const [tenant, stakes] of [
      [testTenants[0], [2_000]],
      [testTenants[1], [9_000]],
    ] as const) {
      const close = closeRoundBody(round, [...stakes], [0], tenant?.operatorId);
      expect((await callGateway(gateway, "/deposit", close, { tenant })).status).toBe(200);
    }
    const one = await eventually(async () => {
      const { json } = await operatorGet(api, `/v1/rounds/${round}?operatorId=1`);
      return (json.report as Record<string, unknown> | null) ?? undefined;
    });
    const two = await eventually(async () => {
      const { json } = await operatorGet(api, `/v1/rounds/${round}?operatorId=2`);
      return (json.report as Record<string, unknown> | null) ?? undefined;
    });
    expect(one).toMatchObject({
      operatorId: 1,
      betCount: 1,
      byCurrency: [{ stakeSum: "2000" }],
      reconciliation: "matched",
    });
    expect(two).toMatchObject({
      operatorId: 2,
      betCount: 1,
      byCurrency: [{ stakeSum: "9000" }],
      reconciliation: "matched",
    });
    await allApplied(round);
    expect((await operatorGet(api, `/v1/players/${ours.userId}?operatorId=1`)).json).toMatchObject({
      loyalty_points: 2,
    });
    await eventually(async () => {
      const { json } = await operatorGet(api, `/v1/players/${theirs.userId}?operatorId=2`);
      return json.loyalty_points === 9 ? true : undefined;
    });
    // Tenant 1 cannot read tenant 2's player.
    expect((await operatorGet(api, `/v1/players/${theirs.userId}?operatorId=1`)).status).toBe(404);
  });

  it("a running tournament's leaderboard ranks the round's players by what it paid them", async () => {
    const { createTournament } = await import("@wallet/ledger/verbs/create-tournament");
    const { tournamentId } = await createTournament({
      ctx: system.ledger.ctx,
      input: {
        tenantId: 1,
        game: "crashGame",
        name: "e2e cup",
        startsAt: new Date(Date.now() - 60_000),
        endsAt: new Date(Date.now() + 3_600_000),
      },
    });
    const round = "e2e-round-tournament";
    const [low, high] = await Promise.all(
      [0, 1].map(() => authedPlayer(system, gateway, { balance: 50_000n })),
    );
    if (!low || !high) throw new Error("players");
    const lowBet = betBody(low, { amount: 1_000, action_id: round });
    const highBet = betBody(high, { amount: 1_000, action_id: round });
    await callGateway(gateway, "/withdraw", lowBet);
    await callGateway(gateway, "/withdraw", highBet);
    await callGateway(gateway, "/deposit", settleBody(low, lowBet, "WIN", { amount: 1_500 }));
    await callGateway(gateway, "/deposit", settleBody(high, highBet, "WIN", { amount: 4_000 }));
    await callGateway(gateway, "/deposit", closeRoundBody(round, [1_000, 1_000], [1.5, 4]));
    await allApplied(round);
    const { status, json } = await operatorGet(
      api,
      `/v1/tournaments/${tournamentId}/leaderboard?operatorId=1`,
    );
    expect(status).toBe(200);
    expect(json).toMatchObject({
      tournament: { id: tournamentId, name: "e2e cup", rule: "payout", game: "crashGame" },
      leaderboard: [
        { rank: 1, user_id: high.userId, score: 4_000, rounds: 1 },
        { rank: 2, user_id: low.userId, score: 1_500, rounds: 1 },
      ],
    });
  });
});

describe("operator API reads", () => {
  it("refuses a missing or wrong bearer token (401) and names bad input (400) and unknowns (404)", async () => {
    expect(await operatorGet(api, "/v1/rounds/x", "")).toEqual({
      status: 401,
      json: { code: 401, message: "missing or wrong bearer token" },
    });
    expect((await operatorGet(api, "/v1/rounds/x", "wrong-token-value")).status).toBe(401);
    expect(await operatorGet(api, "/v1/rounds/nope?operatorId=1")).toEqual({
      status: 404,
      json: { code: 404, message: "round nope not found" },
    });
    expect((await operatorGet(api, "/v1/rounds/x?operatorId=99")).json).toEqual({
      code: 400,
      message: "operatorId: 99 is not configured",
    });
    expect((await operatorGet(api, "/v1/tournaments/abc/leaderboard?operatorId=1")).status).toBe(400);
    expect((await operatorGet(api, "/v1/tournaments/12345/leaderboard?operatorId=1")).status).toBe(404);
    // Two tenants configured: which operator must be said.
    expect((await operatorGet(api, "/v1/players/someone")).json).toEqual({
      code: 400,
      message: "operatorId: is required when several operators are configured",
    });
    expect(testTenants).toHaveLength(2);
  });
});
