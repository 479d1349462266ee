import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { reconciliationOutcomes } from "@wallet/ledger/reads/reconciliations";
import { balanceOf, countRows } from "@wallet/ledger/testing/ledger-reads";
import { unappliedOutboxRows } from "@wallet/ledger/testing/outbox-reads";
import { closesBeforeTheirCallbacks, stakesByRound } from "@wallet/ledger/testing/round-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, operatorCall, testTenants, useTestSystem } from "../harness/system.ts";

const system = useTestSystem();
let sim: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  await system.startWorker();
  const gateway = await system.startGateway();
  sim = await system.startPlatformSim(gateway);
  api = await system.startOperatorApi({ PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}` });
}, 60_000);

const simGet = async (path: string, publicKey?: string) => {
  const response = await fetch(`http://127.0.0.1:${sim.port}${path}`, {
    headers: publicKey ? { "x-public-key": publicKey } : {},
  });
  return { status: response.status, json: (await response.json()) as unknown };
};

describe("the simulator's own endpoints follow the contract", () => {
  it("GET /api/v1/games: 400, 401, 404 and a per-operator catalog", async () => {
    const [one, two] = testTenants;
    expect((await simGet("/api/v1/games", one?.publicKey)).status).toBe(400);
    expect((await simGet("/api/v1/games?operatorId=abc", one?.publicKey)).status).toBe(400);
    expect((await simGet("/api/v1/games?operatorId=1")).status).toBe(401);
    expect((await simGet("/api/v1/games?operatorId=1", "who")).status).toBe(401);
    expect((await simGet("/api/v1/games?operatorId=1", two?.publicKey)).status).toBe(401);
    expect((await simGet("/api/v1/games?operatorId=99", one?.publicKey)).status).toBe(404);
    const first = await simGet("/api/v1/games?operatorId=1", one?.publicKey);
    const second = await simGet("/api/v1/games?operatorId=2", two?.publicKey);
    expect((first.json as Array<{ id: string }>).map((game) => game.id)).toEqual([
      "crashGame",
      "fruitSlot",
      "blackjack",
    ]);
    expect((second.json as Array<{ id: string }>).map((game) => game.id)).toEqual(["crashGame", "blackjack"]);
  });

  it("GET /api/v1/launch/{game}: 401, 400, 404, demo only where available, then a session", async () => {
    const key = testTenants[1]?.publicKey;
    const query = "userToken=u&currency=EUR&platform=desktop&portalMode=real";
    expect((await simGet(`/api/v1/launch/crashGame?${query}`)).status).toBe(401);
    expect(
      (await simGet("/api/v1/launch/crashGame?currency=EUR&platform=desktop&portalMode=real", key)).status,
    ).toBe(400);
    expect((await simGet(`/api/v1/launch/fruitSlot?${query}`, key)).status).toBe(404);
    expect(
      (
        await simGet(
          "/api/v1/launch/blackjack?userToken=u&currency=EUR&platform=desktop&portalMode=demo",
          key,
        )
      ).status,
    ).toBe(200);
    // A classic game: a crash session with a made-up token would join the engine's rounds below.
    const launched = await simGet(`/api/v1/launch/blackjack?${query}`, key);
    expect(launched.json).toMatchObject({
      session_token: expect.stringMatching(/^sim-/),
      launch_url: expect.stringContaining("/play/sim-"),
    });
  });
});

describe("200 crash rounds with several players of two operators, end to end", () => {
  it("journal = balances = what the platform saw; every CLOSE_ROUND after its callbacks; each side effect once", async () => {
    const players: Array<{ operatorId: number; userId: string }> = [];
    for (const operatorId of [1, 1, 1, 1, 2, 2]) {
      const created = await operatorCall(api, "POST", `/v1/players?operatorId=${operatorId}`, {
        username: `sim-${players.length}`,
        currency: "EUR",
        balance: 2_000_000,
        maxbet: 5_000,
      });
      const userId = created.json.user_id as string;
      await operatorCall(api, "POST", `/v1/players/${userId}/free-bets?operatorId=${operatorId}`, {
        count: 5,
      });
      const launched = await operatorCall(
        api,
        "POST",
        `/v1/players/${userId}/launch?operatorId=${operatorId}`,
        {
          game: "crashGame",
          currency: "EUR",
          platform: "desktop",
          portalMode: "real",
        },
      );
      expect(launched.status).toBe(200);
      players.push({ operatorId, userId });
    }

    const played = await fetch(`http://127.0.0.1:${sim.port}/sim/play`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rounds: 200, wait: true, freeBetRate: 0.1, voidRate: 0.05 }),
    });
    const summary = (await played.json()) as {
      stats: {
        rounds: number;
        roundsClosed: number;
        roundsUnclosable: number;
        byStatus: Record<string, number>;
      };
      players: Array<{ userId: string; lastBalance: number }>;
    };
    expect(summary.stats.rounds).toBe(200);
    expect(summary.stats.roundsUnclosable).toBe(0);
    const statuses = Object.keys(summary.stats.byStatus).map((key) => key.split(" ").at(-1));
    expect(statuses.every((status) => status === "200" || status === "402")).toBe(true);
    const closes = summary.stats.byStatus["CLOSE_ROUND 200"] ?? 0;
    expect(closes).toBeGreaterThan(200);
    expect(await countRows(system.ledger, "round_closes")).toBe(closes);

    // Money: every wallet equals its journal, and equals the last balance the platform was told.
    expect((await verifyLedger(system.ledger.db)).problems).toEqual([]);
    for (const seen of summary.players) {
      const player = players.find((entry) => entry.userId === seen.userId);
      const summaryRow = await playerSummary({
        ctx: system.ledger.ctx,
        input: { tenantId: player?.operatorId ?? 0, userId: seen.userId },
      });
      expect(summaryRow?.balance).toBe(BigInt(seen.lastBalance));
    }
    // Ordering: no CLOSE_ROUND was recorded before one of its round's callbacks.
    expect(await closesBeforeTheirCallbacks(system.ledger)).toEqual([]);

    // Side effects: all applied, each once.
    await eventually(
      async () => ((await unappliedOutboxRows(system.ledger)) === 0 ? true : undefined),
      30_000,
      "side effects",
    );
    expect(await countRows(system.ledger, "side_effect_receipts")).toBe(4 * closes);
    expect(await countRows(system.ledger, "round_reports")).toBe(closes);
    // Reconciliation: every round of a healthy platform, free bets and voided rounds included, matches.
    const since = new Date(0);
    const [first, second] = await Promise.all(
      [1, 2].map((tenantId) => reconciliationOutcomes(system.ledger.ctx.db, { tenantId, since })),
    );
    expect({
      matched: (first?.matched ?? 0) + (second?.matched ?? 0),
      mismatch: (first?.mismatch ?? 0) + (second?.mismatch ?? 0),
    }).toEqual({
      matched: closes,
      mismatch: 0,
    });
    for (const { operatorId, userId } of players) {
      const found = await playerSummary({ ctx: system.ledger.ctx, input: { tenantId: operatorId, userId } });
      if (!found) throw new Error(`player ${userId}`);
      const playerId =
        (
          await system.ledger.db.query.players.findFirst({
            where: (table, { eq }) => eq(table.userId, userId),
          })
        )?.id ?? 0;
      // Loyalty from the journal, independently: 1 point per whole 1000 millis staked, per round.
      const expectedPoints = (await stakesByRound(system.ledger, playerId)).reduce(
        (sum, staked) => sum + staked / 1000n,
        0n,
      );
      expect(found.loyalty_points).toBe(expectedPoints);
      expect(found.balance).toBe(await balanceOf(system.ledger, playerId));
    }
  }, 180_000);
});

describe("the platform's retries carry rounds through a wallet outage", () => {
  it("a worker outage mid-play: 503s are retried until acknowledged, and every round still closes", async () => {
    const created = await operatorCall(api, "POST", "/v1/players?operatorId=1", {
      username: "outage",
      currency: "EUR",
      balance: 500_000,
      maxbet: 5_000,
    });
    const userId = created.json.user_id as string;
    await operatorCall(api, "POST", `/v1/players/${userId}/launch?operatorId=1`, {
      game: "crashGame",
      currency: "EUR",
      platform: "mobile",
      portalMode: "real",
    });
    const worker = system.processes.find((proc) => proc.name === "worker" && proc.child.exitCode === null);
    if (!worker) throw new Error("no worker");
    await system.stop(worker);
    const play = fetch(`http://127.0.0.1:${sim.port}/sim/play`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rounds: 5, wait: true, voidRate: 0 }),
    });
    // The wallet stays down until the platform has seen it fail at least once.
    await eventually(
      async () => {
        const stats = (await (await fetch(`http://127.0.0.1:${sim.port}/sim/stats`)).json()) as {
          stats: { byStatus: object };
        };
        return Object.keys(stats.stats.byStatus).some((key) => key.endsWith(" 503")) ? true : undefined;
      },
      20_000,
      "a 503 seen by the platform",
    );
    await system.startWorker();
    const summary = (await (await play).json()) as {
      stats: { retries: number; roundsUnclosable: number; rounds: number; byStatus: Record<string, number> };
    };
    expect(summary.stats.rounds).toBe(5);
    expect(summary.stats.retries).toBeGreaterThan(0);
    expect(Object.keys(summary.stats.byStatus).some((key) => key.endsWith(" 503"))).toBe(true);
    expect(summary.stats.roundsUnclosable).toBe(0);
    expect((await verifyLedger(system.ledger.db)).problems).toEqual([]);
    expect(await closesBeforeTheirCallbacks(system.ledger)).toEqual([]);
  }, 60_000);
});
