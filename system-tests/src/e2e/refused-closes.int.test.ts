import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { receiptsOf } from "@wallet/ledger/testing/dead-letters";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  operatorCall,
  operatorGet,
  scrapeOf,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * The platform never resends a refused CLOSE_ROUND: each is stored with its body and reason before
 * the 400, counted, listed, and recovered by a corrected close through the operator API, applied once.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker({ LOYALTY_POINTS_PER_1000: "1" });
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const refusals = (reason: string) =>
  scrapeOf(gateway).then((scrape) => sampleSum(scrape, "wallet_close_refusals_total", { reason }));
const refused = async (query = "") =>
  (await operatorGet(api, `/v1/refused-closes?operatorId=1${query}`)).json.refused_closes as Array<
    Record<string, unknown>
  >;
const allApplied = (roundId: string, withinMs?: number) => sideEffectsApplied(api, roundId, withinMs);

describe("a refused CLOSE_ROUND is stored, counted and recoverable", () => {
  it("misaligned arrays: 400 and stored once; a corrected close applies the round's effects once; idempotent and audited", async () => {
    const round = "refused-misaligned";
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 3_000, action_id: round }));
    expect(await refusals("misaligned")).toBe(0);

    const bad = closeRoundBody(round, [3_000, 1_000], [0]);
    const answer = await callGateway(gateway, "/deposit", bad);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      code: 400,
      message:
        "attributes: crashGameCashOutCoefficients has 1 items but crashGameBets has 2; they must be aligned",
    });
    // The same bytes again (a replay): answered the same, stored once, counted twice.
    expect((await callGateway(gateway, "/deposit", bad)).text).toBe(answer.text);
    expect(await refusals("misaligned")).toBe(2);
    expect(await refusals("out_of_range")).toBe(0);
    const [stored, ...others] = await refused();
    expect(others).toEqual([]);
    expect(stored).toMatchObject({
      round_id: round,
      provider_tx_id: bad.provider_tx_id,
      reason: "misaligned",
      message: answer.json.message,
      body: JSON.stringify(bad), // as received
      resolved_at: null,
    });
    expect((await operatorGet(api, `/v1/rounds/${round}?operatorId=1`)).json).toMatchObject({
      status: "open",
      side_effects: null,
    });

    // A correction that is still wrong is answered at once and stores nothing.
    const still = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, {
      crashGameCashOutCoefficients: [0, 0],
      crashGameBets: [3_000],
    });
    expect(still.status).toBe(400);
    expect(await countRows(system.ledger, "refused_closes")).toBe(1);
    expect(await countRows(system.ledger, "round_closes")).toBe(0);

    const corrected = {
      crashGameCashOutCoefficients: [0],
      crashGameBets: "[3000]",
      note: "platform ticket 42",
    };
    const applied = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, corrected);
    expect(applied.status).toBe(200);
    expect(applied.json).toMatchObject({
      round_id: round,
      provider_tx_id: `${round}-1-manual`,
      replayed: false,
      refused_closes_resolved: 1,
      close: { provider_tx_id: `${round}-1-manual`, operator_tx_id: expect.any(String) },
    });
    const status = await allApplied(round);
    expect(status).toMatchObject({
      status: "closed",
      close: { bet_count: 1, stakes: [3_000], cash_out_coefficients: [0] },
      reconciliation: { status: "matched", differences: [] },
    });
    expect((await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json).toMatchObject({
      loyalty_points: 3,
      rg: [{ staked: 3_000, won: 0, rounds: 1 }],
    });

    // Again, and the platform's own close arriving late: both answer the first close; effects once.
    const again = await operatorCall(api, "POST", `/v1/rounds/${round}/close?operatorId=1`, corrected);
    expect(again.json).toMatchObject({
      replayed: true,
      refused_closes_resolved: 0,
      close: applied.json.close,
    });
    const late = await callGateway(gateway, "/deposit", closeRoundBody(round, [3_000], [0]));
    expect(late.json).toMatchObject({ code: 200, data: applied.json.close as object });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await receiptsOf(system.ledger.db, `close-round:1:${round}`)).toBe(4);
    expect((await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json).toMatchObject({
      loyalty_points: 3,
    });

    expect(await refused()).toEqual([]);
    const [resolved] = await refused("&include_resolved=true");
    expect(resolved).toMatchObject({
      round_id: round,
      resolved_at: expect.any(String),
      resolution: "manual close through the operator API (OPERATOR_API_TOKEN)",
    });
    expect(await countRows(system.ledger, "operator_actions")).toBe(2);
  });

  it("a coefficient out of range and a close with no round id are stored under their reasons", async () => {
    const huge = await callGateway(gateway, "/deposit", closeRoundBody("refused-huge", [1_000], [2e6]));
    expect(huge.status).toBe(400);
    const noRound = { ...closeRoundBody("x", [1], [0]), action_id: undefined };
    expect((await callGateway(gateway, "/deposit", noRound)).status).toBe(400);
    expect(await refusals("out_of_range")).toBe(1);
    expect(await refusals("bad_id")).toBe(1);
    const listed = await refused();
    expect(listed.map((row) => [row.reason, row.round_id])).toEqual([
      ["bad_id", null],
      ["out_of_range", "refused-huge"],
    ]);
    // A WIN that does not parse is an ordinary 400: not a refused close, not stored.
    const before = await countRows(system.ledger, "refused_closes");
    expect((await callGateway(gateway, "/deposit", { action: "WIN" })).status).toBe(400);
    expect(await countRows(system.ledger, "refused_closes")).toBe(before);
  });

  it("a round id of 65 emoji (65 code points, 130 UTF-16 units): the BET taken, its malformed closes stored WITH the round, the manual close of that round taking and resolving them", async () => {
    const round = "\u{1F600}".repeat(65);
    expect([round.length, [...round].length]).toEqual([130, 65]);
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    const placed = await callGateway(
      gateway,
      "/withdraw",
      betBody(player, { amount: 2_000, action_id: round }),
    );
    expect(placed.json).toMatchObject({ code: 200, data: { new_balance: 48_000 } });

    // Refused by its schema, and not JSON at all (cut short): both stored with the round they name.
    const misaligned = closeRoundBody(round, [2_000, 1], [0]);
    const cut = JSON.stringify(closeRoundBody(round, [2_000], [0])).slice(0, -40);
    for (const raw of [JSON.stringify(misaligned), cut])
      expect((await callGateway(gateway, "/deposit", undefined, { raw })).status).toBe(400);
    const stored = (await refused()).filter((row) => row.round_id === round);
    expect(stored.map((row) => [row.reason, row.body])).toEqual([
      ["malformed_body", cut],
      ["misaligned", JSON.stringify(misaligned)],
    ]);

    const closed = await operatorCall(
      api,
      "POST",
      `/v1/rounds/${encodeURIComponent(round)}/close?operatorId=1`,
      {
        crashGameCashOutCoefficients: [0],
        crashGameBets: [2_000],
      },
    );
    expect(closed).toMatchObject({
      status: 200,
      json: {
        round_id: round,
        provider_tx_id: `${round}-1-manual`,
        replayed: false,
        refused_closes_resolved: 2,
      },
    });
    expect((await refused()).filter((row) => row.round_id === round)).toEqual([]);
    const status = await allApplied(round);
    expect(status).toMatchObject({
      round_id: round,
      status: "closed",
      close: { bet_count: 1, stakes: [2_000] },
    });
    expect(await balanceOf(system.ledger, player.playerId)).toBe(48_000n);
  });
});
