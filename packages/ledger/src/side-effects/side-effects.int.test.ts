import {
  closeRoundEvent,
  closeRoundEventId,
  roundReport,
  type SideEffectTopic,
  sideEffectTopics,
} from "@wallet/contracts/side-effects";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tournamentLeaderboard } from "../reads/leaderboard.ts";
import { playerSummary } from "../reads/player-summary.ts";
import { roundStatus } from "../reads/round-status.ts";
import { betBody, closeRoundBody, settleBody } from "../testing/callback-bodies.ts";
import { playerWithSession, type TestPlayer } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { createTournament } from "../verbs/create-tournament.ts";
import { grantFreeBets } from "../verbs/grant-free-bets.ts";
import { applySideEffect } from "./apply-side-effect.ts";
import { markApplied, relayOutbox, requeueUnapplied } from "./outbox-queries.ts";
import { readRoundSummaries } from "./round-summary.ts";

const ledger = useTestLedger();

const HOUR = 3_600_000;
/** A tenant-1 tournament running from `fromHours` to `toHours` around now. */
function tournament(
  name: string,
  game: string,
  fromHours: number,
  toHours: number,
  rule?: "payout" | "stake",
) {
  return createTournament({
    ctx: ledger.ctx,
    input: {
      tenantId: 1,
      game,
      name,
      rule,
      startsAt: new Date(Date.now() + fromHours * HOUR),
      endsAt: new Date(Date.now() + toHours * HOUR),
    },
  });
}

async function event(tenantId: number, roundId: string) {
  // The payload the relay publishes, exactly as the ledger wrote it.
  const published: Record<string, unknown>[] = [];
  await relayOutbox(ledger.ctx.db, async (rows) => {
    for (const row of rows) published.push({ topic: row.topic, ...JSON.parse(row.payload) });
  });
  const mine = published.find((row) => row.eventId === closeRoundEventId(tenantId, roundId));
  if (!mine) throw new Error(`no outbox event for ${roundId}`);
  const { topic: _topic, ...payload } = mine;
  return payload;
}

async function applyAll(tenantId: number, roundId: string) {
  const payload = await event(tenantId, roundId);
  const results: Record<string, unknown> = {};
  for (const topic of sideEffectTopics)
    results[topic] = await applySideEffect({ ctx: ledger.ctx, input: { topic, event: payload } });
  return { payload, results };
}

async function bet(player: TestPlayer, round: string, amount: number, over: Record<string, unknown> = {}) {
  const body = betBody(player, { amount, action_id: round, ...over });
  const answer = await sendWithdraw(ledger, body, player.tenantId);
  expect(answer.status).toBe(200);
  return body;
}

describe("CLOSE_ROUND side effects, computed by hand for three players", () => {
  it("loyalty, tournaments, rg and the round report match hand arithmetic, and the close reconciles", async () => {
    ledger.ctx.config.loyaltyPointsPer1000 = 2;
    const round = "hand-round-1";
    const running = await tournament("weekly", "crashGame", -1, 1);
    const byStake = await tournament("volume", "crashGame", -1, 1, "stake");
    const otherGame = await tournament("slots", "slotGame", -1, 1);
    const ended = await tournament("last week", "crashGame", -2, -1);

    const alice = await playerWithSession(ledger, { balance: 10_000n });
    const bob = await playerWithSession(ledger, { balance: 10_000n });
    const carol = await playerWithSession(ledger, { balance: 10_000n });
    await grantFreeBets({ ctx: ledger.ctx, input: { tenantId: 1, userId: carol.userId, count: 1 } });

    // Alice: 1000 cashed out at 2.5 (pays 2500) and 500 lost. Staked 1500, won 2500.
    const aliceWin = await bet(alice, round, 1_000);
    await bet(alice, round, 500);
    await sendDeposit(ledger, settleBody(alice, aliceWin, "WIN", { amount: 2_500 }));
    // Bob: 3000 lost. Staked 3000, won 0.
    await bet(bob, round, 3_000);
    // Carol: 700 rolled back, and a free bet cashed out at 1.5 on a nominal 800 (pays 1200). Staked 0, won 1200.
    const carolVoid = await bet(carol, round, 700);
    await sendDeposit(ledger, settleBody(carol, carolVoid, "ROLL_BACK"));
    const carolFree = await bet(carol, round, 0, { action: "FREE_BET" });
    await sendDeposit(ledger, settleBody(carol, carolFree, "FREE_BET_WIN", { amount: 1_200 }));

    const close = closeRoundBody(round, [3_000, 800, 500, 1_000], [0, 1.5, 0.8, 2.5]);
    expect((await sendDeposit(ledger, close)).status).toBe(200);
    const { results } = await applyAll(1, round);
    expect(results.reporting).toEqual({ outcome: "applied", rows: 1, mismatch: false });

    const summary = async (player: TestPlayer) => {
      const found = await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId } });
      return { points: found?.loyalty_points, rg: found?.rg.map(({ day: _day, ...counters }) => counters) };
    };
    // Loyalty at 2 points per 1000 millis staked: Alice 1500 → 3, Bob 3000 → 6, Carol 0 → none.
    expect(await summary(alice)).toEqual({
      points: 3n,
      rg: [{ staked: 1_500n, won: 2_500n, net_loss: -1_000n, rounds: 1 }],
    });
    expect(await summary(bob)).toEqual({
      points: 6n,
      rg: [{ staked: 3_000n, won: 0n, net_loss: 3_000n, rounds: 1 }],
    });
    expect(await summary(carol)).toEqual({
      points: 0n,
      rg: [{ staked: 0n, won: 1_200n, net_loss: -1_200n, rounds: 1 }],
    });

    const board = async (id: number) =>
      (
        await tournamentLeaderboard({ ctx: ledger.ctx, input: { tenantId: 1, tournamentId: id } })
      )?.leaderboard.map((row) => [row.user_id, row.score]);
    expect(await board(running.tournamentId)).toEqual([
      [alice.userId, 2_500n],
      [carol.userId, 1_200n],
      [bob.userId, 0n],
    ]);
    expect(await board(byStake.tournamentId)).toEqual([
      [bob.userId, 3_000n],
      [alice.userId, 1_500n],
      [carol.userId, 0n],
    ]);
    expect(await board(otherGame.tournamentId)).toEqual([]);
    expect(await board(ended.tournamentId)).toEqual([]);

    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
    expect(status).toMatchObject({
      status: "closed",
      side_effects: { loyalty: "applied", tournaments: "applied", reporting: "applied", rg: "applied" },
      reconciliation: { status: "matched", differences: [] },
      report: {
        eventId: `round-report:1:${round}`,
        operatorId: 1,
        betCount: 4,
        byCurrency: [{ currency: "EUR", betCount: 4, stakeSum: "4500", payoutSum: "3700", ggr: "800" }],
        reconciliation: "matched",
      },
    });
    ledger.ctx.config.loyaltyPointsPer1000 = 1;
  });
});

describe("the round summary the relay ships", () => {
  it("is what the journal and bets say, once per round for the four topics, and the consumers apply it as shipped", async () => {
    const round = "summary-round-1";
    const dana = await playerWithSession(ledger, { balance: 10_000n });
    const eve = await playerWithSession(ledger, { balance: 10_000n });
    const danaWin = await bet(dana, round, 1_000);
    await sendDeposit(ledger, settleBody(dana, danaWin, "WIN", { amount: 1_800 }));
    const eveVoid = await bet(eve, round, 400);
    await sendDeposit(ledger, settleBody(eve, eveVoid, "ROLL_BACK"));
    await bet(eve, round, 600);
    expect((await sendDeposit(ledger, closeRoundBody(round, [1_000, 600], [1.8, 0]))).status).toBe(200);

    const payload = closeRoundEvent.parse(await event(1, round));
    const summaries = await readRoundSummaries(ledger.ctx, [payload, payload]);
    expect(summaries.size).toBe(1);
    const summary = summaries.get(payload.eventId);
    const byPlayer = (summary?.players ?? []).map(({ playerId, ...rest }) => ({
      who: playerId === dana.playerId ? "dana" : playerId === eve.playerId ? "eve" : playerId,
      ...rest,
    }));
    expect(byPlayer.sort((a, b) => String(a.who).localeCompare(String(b.who)))).toEqual([
      { who: "dana", currency: "EUR", staked: "1000", won: "1800", bets: 1 },
      { who: "eve", currency: "EUR", staked: "600", won: "0", bets: 1 },
    ]);
    // Bounded by the round's players, never by the close: no arrays, no bets (reporting reads those).
    expect(summary).toEqual({
      game: "crashGame",
      closedAt: expect.any(String),
      players: expect.any(Array),
    });

    // The consumer computes with the summary it is given and reads no journal: a summary that says
    // Dana staked 5000 earns 5 points (the journal says 1000).
    if (!summary) throw new Error("no summary");
    const shipped = {
      ...payload,
      round: {
        ...summary,
        players: summary.players.map((p) => (p.playerId === dana.playerId ? { ...p, staked: "5000" } : p)),
      },
    };
    await applySideEffect({ ctx: ledger.ctx, input: { topic: "loyalty", event: shipped } });
    const points = await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: dana.userId } });
    expect(points?.loyalty_points).toBe(5n);
  });
});

describe("exactly once", () => {
  it("a second delivery of any topic is a no-op, and 20 concurrent deliveries apply once", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await bet(player, "once-round", 4_000);
    await sendDeposit(ledger, closeRoundBody("once-round", [4_000], [0]));
    const payload = await event(1, "once-round");
    for (const topic of ["loyalty", "rg", "tournaments"] as SideEffectTopic[]) {
      expect(await applySideEffect({ ctx: ledger.ctx, input: { topic, event: payload } })).toMatchObject({
        outcome: "applied",
      });
      expect(await applySideEffect({ ctx: ledger.ctx, input: { topic, event: payload } })).toEqual({
        outcome: "duplicate",
      });
    }
    const reports: unknown[] = [];
    const raced = await Promise.all(
      Array.from({ length: 20 }, () =>
        applySideEffect({
          ctx: ledger.ctx,
          input: {
            topic: "reporting",
            event: payload,
            publishReport: async (report) => void reports.push(report),
          },
        }),
      ),
    );
    expect(raced.filter((result) => result.outcome === "applied")).toHaveLength(1);
    expect(raced.filter((result) => result.outcome === "duplicate")).toHaveLength(19);
    expect(reports).toHaveLength(1);
    const summary = await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId } });
    expect(summary?.loyalty_points).toBe(4n);
    expect(summary?.rg[0]).toMatchObject({ staked: 4_000n, rounds: 1 });
  });

  it("a failure before the commit leaves nothing, so the redelivery applies it", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await bet(player, "crash-round", 2_000);
    await sendDeposit(ledger, closeRoundBody("crash-round", [2_000], [0]));
    const payload = await event(1, "crash-round");
    const crash = async () => {
      throw new Error("worker died");
    };
    await expect(
      applySideEffect({
        ctx: ledger.ctx,
        input: { topic: "loyalty", event: payload, testHookBeforeCommit: crash },
      }),
    ).rejects.toThrow();
    expect(
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId } }))
        ?.loyalty_points,
    ).toBe(0n);
    expect(
      await applySideEffect({ ctx: ledger.ctx, input: { topic: "loyalty", event: payload } }),
    ).toMatchObject({ outcome: "applied" });
    expect(
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId } }))
        ?.loyalty_points,
    ).toBe(2n);
  });
});

describe("attribution and reconciliation", () => {
  it("two tenants in one round: each tenant's close covers only its own players", async () => {
    const mine = await playerWithSession(ledger, { tenantId: 1, balance: 10_000n });
    const theirs = await playerWithSession(ledger, { tenantId: 2, balance: 10_000n });
    await bet(mine, "shared-round", 1_000);
    await bet(theirs, "shared-round", 5_000);
    await sendDeposit(ledger, closeRoundBody("shared-round", [1_000], [0], 1), 1);
    await applyAll(1, "shared-round");
    expect(
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: mine.userId } }))?.loyalty_points,
    ).toBe(1n);
    expect(
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 2, userId: theirs.userId } }))
        ?.loyalty_points,
    ).toBe(0n);
    const report = (await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: "shared-round" } }))
      ?.report;
    expect(report).toMatchObject({
      betCount: 1,
      byCurrency: [{ stakeSum: "1000" }],
      reconciliation: "matched",
    });
    // Tenant 2 closes later, with its own player only.
    await sendDeposit(ledger, closeRoundBody("shared-round", [5_000], [0], 2), 2);
    await applyAll(2, "shared-round");
    expect(
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 2, userId: theirs.userId } }))
        ?.loyalty_points,
    ).toBe(5n);
    expect(
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: mine.userId } }))?.loyalty_points,
    ).toBe(1n);
  });

  it("a round whose sums pass 2^53 is reported exactly, as decimal text the published schema accepts", async () => {
    // Issue 31: two stakes of 5e15 millis summed to 1e16, past the schema's 2^53 − 1: the export
    // dropped the report (ZodError too_big) and the republish tool died on it.
    const round = "huge-round";
    // Odd sum past 2^53: no JSON number holds it exactly.
    const stakes = [5_000_000_000_000_001n, 5_000_000_000_000_002n];
    for (const stake of stakes) {
      const player = await playerWithSession(ledger, { balance: stake, maxbet: stake });
      await bet(player, round, Number(stake));
    }
    await sendDeposit(ledger, closeRoundBody(round, stakes.map(Number), [0, 0]));
    const published: unknown[] = [];
    const payload = await event(1, round);
    await applySideEffect({
      ctx: ledger.ctx,
      input: {
        topic: "reporting",
        event: payload,
        publishReport: async (report) => void published.push(report),
      },
    });
    const sums = {
      currency: "EUR",
      betCount: 2,
      stakeSum: "10000000000000003",
      payoutSum: "0",
      ggr: "10000000000000003",
    };
    expect(published.map((report) => roundReport.parse(report))).toMatchObject([
      { schemaVersion: 2, byCurrency: [sums] },
    ]);
    const stored = (await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } }))?.report;
    expect(roundReport.parse(stored).byCurrency).toEqual([sums]);
  });

  it("a close naming bets we never saw is a recorded mismatch, not a failure", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await bet(player, "odd-round", 1_000);
    await sendDeposit(ledger, closeRoundBody("odd-round", [1_000, 9_999], [0, 3]));
    const { results } = await applyAll(1, "odd-round");
    expect(results.reporting).toEqual({ outcome: "applied", rows: 1, mismatch: true });
    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: "odd-round" } });
    expect(status?.reconciliation).toEqual({
      status: "mismatch",
      revision: 1,
      anomalies: [],
      differences: [
        { kind: "platform_bet_not_found", index: 1, stake: 9_999, coefficient: 3, expectedPayout: 29_997 },
      ],
      summary: {
        platform_bet_not_found: { count: 1, stake: "9999", payout: "29997" },
        operator_bet_not_in_close: { count: 0, stake: "0", payout: "0" },
      },
    });
  });
});

describe("outbox relay", () => {
  it("relays side by side never publish the same effect twice, and a relay that fails before marking republishes", async () => {
    for (let i = 0; i < 10; i++) await sendDeposit(ledger, closeRoundBody(`relay-round-${i}`, [1], [0]));
    let failed = 0;
    await expect(
      relayOutbox(ledger.ctx.db, async (rows) => {
        failed = rows.length;
        throw new Error("Redis went away");
      }),
    ).rejects.toThrow();
    expect(failed).toBeGreaterThan(0);
    const seen: string[][] = [[], [], []];
    await Promise.all(
      seen.map(async (effects) => {
        while (
          (await relayOutbox(
            ledger.ctx.db,
            async (rows) => {
              effects.push(...rows.map((row) => `${row.id} ${row.topic}`));
              await new Promise((resolve) => setTimeout(resolve, 20));
            },
            3,
          )) > 0
        );
      }),
    );
    const all = seen.flat();
    expect(new Set(all).size).toBe(all.length);
    // One row per close, published as one effect per topic.
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(new Set(all.map((effect) => effect.split(" ")[1]))).toEqual(
      new Set(["loyalty", "tournaments", "reporting", "rg"]),
    );
    expect(await relayOutbox(ledger.ctx.db, async () => {})).toBe(0);
    // Published but never applied (their jobs were lost): the sweep hands them back to the relay.
    expect(await requeueUnapplied(ledger.ctx.db, 0)).toBeGreaterThanOrEqual(10);
    expect(await relayOutbox(ledger.ctx.db, async () => {}, 1_000)).toBeGreaterThanOrEqual(10);
  });

  it("marks a close's row applied once all four receipts exist, and the sweep then leaves it alone", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: "mark-round" }));
    await sendDeposit(ledger, closeRoundBody("mark-round", [1_000], [0]));
    const payload = await event(1, "mark-round");
    const eventId = closeRoundEventId(1, "mark-round");
    const applied = async () => {
      const [rows] = (await ledger.db.execute(
        sql`SELECT applied_at IS NOT NULL AS applied FROM outbox WHERE event_id = ${eventId}`,
      )) as unknown as [Array<{ applied: number }>];
      return rows.map((row) => Number(row.applied));
    };
    for (const topic of ["loyalty", "tournaments", "rg"] as const)
      await applySideEffect({ ctx: ledger.ctx, input: { topic, event: payload } });
    await markApplied(ledger.ctx.db);
    expect(await applied()).toEqual([0]); // three of four: still owed
    expect(await requeueUnapplied(ledger.ctx.db, 0)).toBeGreaterThanOrEqual(1);
    await relayOutbox(ledger.ctx.db, async () => {});

    await applySideEffect({ ctx: ledger.ctx, input: { topic: "reporting", event: payload } });
    await markApplied(ledger.ctx.db);
    expect(await applied()).toEqual([1]);
    await requeueUnapplied(ledger.ctx.db, 0);
    const republished: string[] = [];
    await relayOutbox(ledger.ctx.db, async (rows) => {
      republished.push(...rows.map((row) => row.eventId));
    });
    expect(republished).not.toContain(eventId);
  });
});
