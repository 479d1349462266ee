import { closeRoundTxIdMax, roundIdMax } from "@wallet/contracts/close-round";
import { seedRoundBets } from "@wallet/ledger/testing/busy-round";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  operatorGet,
  sideEffectsApplied,
  useTestSystem,
} from "../harness/system.ts";

/**
 * The platform never resends a 4xx: a CLOSE_ROUND refused is a round whose effects are lost. So a
 * close is accepted whenever it can be understood (docs/contract-decisions.md), through the real
 * gateway, worker, relay and consumers.
 */
const system = useTestSystem();
let gateway: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const roundStatus = async (roundId: string) =>
  (await operatorGet(api, `/v1/rounds/${encodeURIComponent(roundId)}?operatorId=1`)).json;
const allApplied = (roundId: string, withinMs?: number) => sideEffectsApplied(api, roundId, withinMs);

describe("CLOSE_ROUND is accepted whenever it can be understood", () => {
  it("a close carrying createDate, other attributes and player fields is applied like any other", async () => {
    const round = "accept-extra-fields";
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 2_000, action_id: round }));
    const close = closeRoundBody(round, [2_000], [0]);
    const busy = {
      ...close,
      amount: 0,
      user_id: player.userId,
      session_token: player.sessionToken,
      attributes: [
        { name: "createDate", value: "2026-11-24T10:00:00Z" },
        ...close.attributes,
        { name: "x", value: "1" },
      ],
    };
    const answer = await callGateway(gateway, "/deposit", busy);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ code: 200, data: { provider_tx_id: close.provider_tx_id } });
    const status = await allApplied(round);
    expect(status).toMatchObject({
      status: "closed",
      reconciliation: { status: "matched", differences: [] },
      report: { betCount: 1, byCurrency: [{ currency: "EUR", stakeSum: "2000", payoutSum: "0" }] },
    });
    expect((await operatorGet(api, `/v1/players/${player.userId}?operatorId=1`)).json).toMatchObject({
      balance: 8_000,
      rg: [{ staked: 2_000, won: 0, rounds: 1 }],
    });
  });

  it("a round with the longest id a BET accepts is closed under the contract's key", async () => {
    const round = `long-${"r".repeat(roundIdMax - 5)}`;
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const bet = await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: round }));
    expect(bet.status).toBe(200);
    const close = closeRoundBody(round, [1_000], [2.5]);
    expect(close.provider_tx_id.length).toBeGreaterThan(128);
    const first = await callGateway(gateway, "/deposit", close);
    expect(first.status).toBe(200);
    expect((await callGateway(gateway, "/deposit", close)).text).toBe(first.text);
    // The longest key of all (16-digit operator id) is stored whole, as a replay shows.
    const longest = {
      ...closeRoundBody(`other-${round}`.slice(0, roundIdMax), [5], [0]),
      provider_tx_id: "k".repeat(closeRoundTxIdMax),
    };
    const stored = await callGateway(gateway, "/deposit", longest);
    expect(stored.json).toMatchObject({ code: 200, data: { provider_tx_id: longest.provider_tx_id } });
    expect((await callGateway(gateway, "/deposit", longest)).text).toBe(stored.text);
    const status = await allApplied(round);
    expect(status.reconciliation).toEqual({
      status: "mismatch",
      revision: 1,
      anomalies: [],
      differences: [
        { kind: "platform_bet_not_found", index: 0, stake: 1_000, coefficient: 2.5, expectedPayout: 2_500 },
        { kind: "operator_bet_not_in_close", providerTxId: expect.any(String), stake: 1_000, payout: 0 },
      ],
      summary: {
        platform_bet_not_found: { count: 1, stake: "1000", payout: "2500" },
        operator_bet_not_in_close: { count: 1, stake: "1000", payout: "0" },
      },
    });
  });

  it("a close of 100,000 bets is accepted, stored whole and reconciled", async () => {
    const round = "accept-busy-round";
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const stakes = Array.from({ length: 100_000 }, (_, i) => 100 + (i % 97) * 100);
    await seedRoundBets(system.ledger, { tenantId: 1, playerId: player.playerId, roundId: round, stakes });
    const body = closeRoundBody(
      round,
      stakes,
      stakes.map(() => 0),
    );
    const raw = JSON.stringify(body);
    expect(raw.length).toBeGreaterThan(64 * 1024);
    const answer = await callGateway(gateway, "/deposit", body, { timeoutMs: 30_000 });
    expect(answer.status).toBe(200);
    const status = await allApplied(round, 60_000);
    expect(status).toMatchObject({
      reconciliation: { status: "matched", differences: [] },
      report: { betCount: 100_000, byCurrency: [{ currency: "EUR", betCount: 100_000 }] },
    });
    expect((status.close as { bet_count: number }).bet_count).toBe(100_000);
  }, 120_000);

  it("only a CLOSE_ROUND may be larger than the ordinary body limit, and only from a known operator", async () => {
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const padded = betBody(player, {
      amount: 1,
      attributes: Array.from({ length: 40 }, (_, i) => ({ name: `pad${i}`, value: "x".repeat(2_000) })),
    });
    const bigWin = { ...padded, action: "WIN", withdraw_provider_tx_id: "x" };
    const answer = await callGateway(gateway, "/deposit", bigWin);
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({
      code: 413,
      message: expect.stringMatching(/only a CLOSE_ROUND may be larger/),
    });
    const stranger = await callGateway(gateway, "/deposit", bigWin, { publicKey: "nobody" });
    expect(stranger.status).toBe(413);
    expect((await callGateway(gateway, "/withdraw", padded)).status).toBe(413);
  });

  it("a coefficient outside 0 to 1,000,000 is refused at the gateway (400), and nothing is stored", async () => {
    const round = "accept-huge-coefficient";
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: round }));
    const closes = await countRows(system.ledger, "round_closes");
    const answer = await callGateway(gateway, "/deposit", closeRoundBody(round, [1_000], [1e21]));
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      code: 400,
      message:
        "attributes: attribute crashGameCashOutCoefficients must be a JSON-encoded array of decimal numbers (item 0: must be at most 1000000, got 1e+21)",
    });
    expect(await countRows(system.ledger, "round_closes")).toBe(closes);
    expect(await roundStatus(round)).toMatchObject({ status: "open", side_effects: null });
  });
});
