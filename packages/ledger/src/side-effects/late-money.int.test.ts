import { randomUUID } from "node:crypto";
import {
  closeRoundEvent,
  closeRoundEventId,
  type SideEffectTopic,
  sideEffectTopics,
} from "@wallet/contracts/side-effects";
import { describe, expect, it } from "vitest";
import { tournamentLeaderboard } from "../reads/leaderboard.ts";
import { playerSummary } from "../reads/player-summary.ts";
import { roundStatus } from "../reads/round-status.ts";
import { betBody, closeRoundBody, settleBody } from "../testing/callback-bodies.ts";
import { journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession, type TestPlayer } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { createTournament } from "../verbs/create-tournament.ts";
import { applySideEffect } from "./apply-side-effect.ts";
import { relayOutbox } from "./outbox-queries.ts";
import { readRoundSummaries } from "./round-summary.ts";

const ledger = useTestLedger();

/** Publishes every unpublished outbox row and returns the events of `round`. */
async function publish(round: string): Promise<Record<string, unknown>[]> {
  const published: Record<string, unknown>[] = [];
  await relayOutbox(ledger.db, async (rows) => {
    for (const row of rows) if (row.topic === "loyalty") published.push(JSON.parse(row.payload));
  });
  return published.filter((event) => event.roundId === round);
}

async function apply(
  events: Record<string, unknown>[],
  topics: readonly SideEffectTopic[] = sideEffectTopics,
) {
  for (const event of events)
    for (const topic of topics) await applySideEffect({ ctx: ledger.ctx, input: { topic, event } });
}

/** Publishes every unpublished outbox row and applies the four effects of those of `round`. */
async function applyRound(round: string): Promise<string[]> {
  const mine = await publish(round);
  await apply(mine);
  return mine.map((event) => String(event.eventId));
}

/** Every figure the four effects keep for a player, plus the round's report as the reporting team reads it. */
async function figures(player: TestPlayer, tournaments: number[]) {
  const found = await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId } });
  const scores = [];
  for (const tournamentId of tournaments) {
    const board = await tournamentLeaderboard({ ctx: ledger.ctx, input: { tenantId: 1, tournamentId } });
    scores.push(board?.leaderboard.find((row) => row.user_id === player.userId)?.score ?? null);
  }
  return {
    points: found?.loyalty_points,
    rg: found?.rg.map(({ day: _day, ...counters }) => counters),
    scores,
  };
}

async function ok(answer: Promise<{ status: number }>) {
  expect((await answer).status).toBe(200);
}

/**
 * Sends `line` with its batch held at a test hook (`install` sets the hook, which calls `hold`),
 * then the round's `close`: the close must not answer while the line's batch holds (it waits on the
 * round's row), and both are answered 200 once the batch is let go.
 */
async function closeWaitsFor(
  install: (hold: () => Promise<void>) => void,
  line: () => Promise<{ status: number }>,
  close: () => Promise<{ status: number }>,
) {
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  install(async () => {
    entered();
    await held;
  });
  try {
    const sent = line();
    await inside;
    let closed = false;
    const closing = close().then((answer) => {
      closed = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);
    release();
    await ok(sent);
    await ok(closing);
  } finally {
    release();
    ledger.ctx.testHooks = undefined;
  }
}

/**
 * Two identical rounds played by two pairs of fresh players: in one every callback comes before the
 * close; in the other three of them come after it (a BET the close lists, the WIN of an earlier bet,
 * the refund of another). `effectsBetween` applies the close's effects before the late lines arrive,
 * or (false) only after them: the relay then reads a round that already holds them.
 */
async function playTwice(effectsBetween: boolean) {
  const game = `late-game-${randomUUID().slice(0, 8)}`;
  const hour = 3_600_000;
  const window = {
    tenantId: 1,
    game,
    startsAt: new Date(Date.now() - hour),
    endsAt: new Date(Date.now() + hour),
  };
  const payout = await createTournament({
    ctx: ledger.ctx,
    input: { ...window, name: "payout", rule: "payout" },
  });
  const stake = await createTournament({
    ctx: ledger.ctx,
    input: { ...window, name: "stake", rule: "stake" },
  });
  const tournaments = [payout.tournamentId, stake.tournamentId];

  const rounds: Record<string, { round: string; first: TestPlayer; second: TestPlayer }> = {};
  for (const name of ["onTime", "late"]) {
    rounds[name] = {
      round: `late-money-${name}-${randomUUID().slice(0, 8)}`,
      first: await playerWithSession(ledger, { balance: 50_000n }),
      second: await playerWithSession(ledger, { balance: 50_000n }),
    };
  }
  const answers: Record<string, Array<{ status: number; raw: string; anomalies: string[] }>> = {
    onTime: [],
    late: [],
  };
  for (const [name, { round, first, second }] of Object.entries(rounds)) {
    const betOf = (player: TestPlayer, amount: number) => betBody(player, { amount, action_id: round, game });
    const firstBet = betOf(first, 1_000);
    const voided = betOf(second, 300);
    await ok(sendWithdraw(ledger, firstBet));
    await ok(sendWithdraw(ledger, betOf(second, 500)));
    await ok(sendWithdraw(ledger, voided));
    // The platform lists the first player's two bets (1000 cashed out at 2, 2000 lost) and the
    // second's 500 lost; the voided 300 is left out.
    const close = { ...closeRoundBody(round, [1_000, 500, 2_000], [2, 0, 0]), game };
    const lateLines = [
      () => sendWithdraw(ledger, betOf(first, 2_000)),
      () => sendDeposit(ledger, settleBody(first, firstBet, "WIN", { amount: 2_000 })),
      () => sendDeposit(ledger, settleBody(second, voided, "ROLL_BACK")),
    ];
    if (name === "onTime") {
      for (const line of lateLines) await ok(line());
      await ok(sendDeposit(ledger, close));
      await applyRound(round);
      continue;
    }
    await ok(sendDeposit(ledger, close));
    if (effectsBetween) await applyRound(round);
    for (const line of lateLines) {
      const answer = await line();
      expect(answer.status).toBe(200);
      answers[name]?.push(answer);
    }
    await applyRound(round);
  }
  return { rounds, tournaments, answers: answers.late ?? [] };
}

describe("money booked into a closed round (issue 18: late money)", () => {
  for (const effectsBetween of [true, false]) {
    const when = effectsBetween ? "before the late lines came" : "only after them";
    it(`is marked, counted, and the round's effects and report end as if it had come before the close (close's effects applied ${when})`, async () => {
      const { rounds, tournaments, answers } = await playTwice(effectsBetween);
      const { onTime, late } = rounds as Required<typeof rounds>;
      if (!onTime || !late) throw new Error("rounds missing");

      // The money moved as the platform said, each line marked after_close and answered with it.
      expect(answers.map((answer) => answer.anomalies)).toEqual([
        ["after_close"],
        ["after_close"],
        ["after_close"],
      ]);
      for (const answer of answers) expect(answer.raw).not.toContain("after_close");
      const lateJournal = await journalOf(ledger, late.first.playerId);
      const onTimeJournal = await journalOf(ledger, onTime.first.playerId);
      expect(lateJournal.map((line) => line.amount)).toEqual(onTimeJournal.map((line) => line.amount));
      expect(lateJournal.map((line) => [line.kind, line.anomaly])).toEqual([
        ["OPENING", null],
        ["BET", null],
        ["BET", "after_close"],
        ["WIN", "after_close"],
      ]);
      expect((await journalOf(ledger, late.second.playerId)).at(-1)).toMatchObject({
        kind: "ROLL_BACK",
        amount: 300n,
        anomaly: "after_close",
      });

      // Loyalty, RG and both tournaments: the same for each player as in the round played in order.
      expect(await figures(late.first, tournaments)).toEqual(await figures(onTime.first, tournaments));
      expect(await figures(late.second, tournaments)).toEqual(await figures(onTime.second, tournaments));
      expect(await figures(late.first, tournaments)).toEqual({
        points: 3n,
        rg: [{ staked: 3_000n, won: 2_000n, net_loss: 1_000n, rounds: 1 }],
        scores: [2_000n, 3_000n],
      });
      expect((await figures(late.second, tournaments)).rg).toEqual([
        { staked: 500n, won: 0n, net_loss: 500n, rounds: 1 },
      ]);

      // Re-reconciled and re-reported: the latest report sums the whole round, revision 1 + 3 lines.
      const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: late.round } });
      const control = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: onTime.round } });
      const reportOf = (found: typeof status) => (found?.report ?? {}) as Record<string, unknown>;
      const { eventId, revision: _revision, ...sums } = reportOf(status);
      const { eventId: _controlId, revision: _controlRevision, ...controlSums } = reportOf(control);
      expect({ ...sums, roundId: "", closedAt: "" }).toEqual({ ...controlSums, roundId: "", closedAt: "" });
      expect(reportOf(status)).toMatchObject({
        revision: 4,
        betCount: 3,
        byCurrency: [{ currency: "EUR", betCount: 3, stakeSum: "3500", payoutSum: "2000", ggr: "1500" }],
        reconciliation: "matched",
      });
      expect(String(eventId)).toMatch(new RegExp(`^round-report:1:${late.round}:late:[0-9a-f-]{36}$`));
      expect(status?.reconciliation).toMatchObject({ status: "matched", revision: 4, differences: [] });
      expect(status?.reconciliation?.anomalies.map((line) => [line.kind, line.anomalies])).toEqual([
        ["BET", ["after_close"]],
        ["WIN", ["after_close"]],
        ["ROLL_BACK", ["after_close"]],
      ]);
      expect(status?.side_effects).toEqual({
        loyalty: "applied",
        tournaments: "applied",
        reporting: "applied",
        rg: "applied",
      });
    });
  }

  it("a resend of a late line is its stored answer: no second late event; the round shows its effects pending until applied", async () => {
    const round = `late-resend-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const first = betBody(player, { amount: 1_000, action_id: round });
    await ok(sendWithdraw(ledger, first));
    await ok(sendDeposit(ledger, closeRoundBody(round, [1_000], [1.5])));
    expect(await applyRound(round)).toEqual([closeRoundEventId(1, round)]);
    const win = settleBody(player, first, "WIN", { amount: 1_500 });
    const answer = await sendDeposit(ledger, win);
    expect(answer.anomalies).toEqual(["after_close"]);
    const resent = await sendDeposit(ledger, win);
    // The stored answer, not counted again (the worker counts the anomalies of a new answer only).
    expect(resent).toMatchObject({ raw: answer.raw, replayed: true, anomalies: [] });
    const pending = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
    expect(pending?.side_effects).toEqual({
      loyalty: "pending",
      tournaments: "pending",
      reporting: "pending",
      rg: "pending",
    });
    expect(pending?.reconciliation).toMatchObject({ status: "mismatch", revision: 1 });
    const late = await publish(round);
    expect(late.map((event) => event.eventId)).toEqual([
      expect.stringMatching(new RegExp(`^late:1:${round}:`)),
    ]);
    await apply(late);
    const after = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
    expect(after?.reconciliation).toMatchObject({ status: "matched", revision: 2 });
    expect(after?.side_effects?.reporting).toBe("applied");
    // The late event delivered again adds nothing: exactly once, like a close's.
    await apply(late);
    expect(await figures(player, [])).toEqual({
      points: 1n,
      rg: [{ staked: 1_000n, won: 1_500n, net_loss: -500n, rounds: 1 }],
      scores: [],
    });
  });

  it("a close's report computed before a late line and applied after it does not put the older figures back", async () => {
    const round = `late-stale-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const first = betBody(player, { amount: 1_000, action_id: round });
    await ok(sendWithdraw(ledger, first));
    await ok(sendDeposit(ledger, closeRoundBody(round, [1_000], [1.5])));
    // The relay read the round for the close's jobs, then the WIN came, and the late event's report
    // was applied first (the close's reporting job was retried).
    const [closeEvent] = await publish(round);
    const parsed = closeRoundEvent.parse(closeEvent);
    const shipped = {
      ...parsed,
      round: (await readRoundSummaries(ledger.ctx, [parsed])).get(parsed.eventId),
    };
    await ok(sendDeposit(ledger, settleBody(player, first, "WIN", { amount: 1_500 })));
    await apply(await publish(round), ["reporting"]);
    await apply([shipped], ["reporting"]);
    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
    expect(status?.reconciliation).toMatchObject({ status: "matched", revision: 2 });
    expect(status?.report).toMatchObject({
      revision: 2,
      eventId: expect.stringMatching(/:late:/),
      byCurrency: [{ currency: "EUR", betCount: 1, stakeSum: "1000", payoutSum: "1500", ggr: "-500" }],
    });
  });

  it("a close waits for a batch that found its round open, so that batch's line is in the close's figures", async () => {
    const round = `late-race-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const first = betBody(player, { amount: 1_000, action_id: round });
    await ok(sendWithdraw(ledger, first));
    // The WIN's batch has read (and share-locked) the open round, and is held before its COMMIT.
    let calls = 0;
    await closeWaitsFor(
      (hold) => {
        ledger.ctx.testHooks = {
          beforeBatchCommit: async () => {
            calls += 1;
            if (calls === 1) await hold();
          },
        };
      },
      () => sendDeposit(ledger, settleBody(player, first, "WIN", { amount: 1_500 })),
      () => sendDeposit(ledger, closeRoundBody(round, [1_000], [1.5])),
    );
    expect((await journalOf(ledger, player.playerId)).at(-1)).toMatchObject({ kind: "WIN", anomaly: null });
    expect(await applyRound(round)).toEqual([closeRoundEventId(1, round)]);
    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
    expect(status?.reconciliation).toMatchObject({ status: "matched", revision: 1 });
  });

  it("a round's first BET whose batch waits after its reads keeps the round's close waiting: the BET is in the close's figures", async () => {
    // Issue 31: the round had no row yet, so the BET's share lock locked nothing; its batch waited
    // (any lock wait does it), the close committed meanwhile and its effects were read without the
    // BET, which then committed unmarked: in no figures at all.
    const round = `late-first-bet-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await closeWaitsFor(
      (hold) => {
        ledger.ctx.testHooks = {
          afterBatchRead: async (jobs) => {
            if (jobs.some((job) => job.kind === "BET" && job.request.action_id === round)) await hold();
          },
        };
      },
      () => sendWithdraw(ledger, betBody(player, { amount: 1_500, action_id: round })),
      () => sendDeposit(ledger, closeRoundBody(round, [1_500], [0])),
    );
    expect((await journalOf(ledger, player.playerId)).at(-1)).toMatchObject({
      kind: "BET",
      amount: -1_500n,
      anomaly: null,
    });
    expect(await applyRound(round)).toEqual([closeRoundEventId(1, round)]);
    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
    expect(status?.reconciliation).toMatchObject({ status: "matched", revision: 1, differences: [] });
    expect(status?.report).toMatchObject({ betCount: 1, reconciliation: "matched" });
    expect((await figures(player, [])).points).toBe(1n);
  });

  for (const closeFirst of [true, false]) {
    const order = closeFirst ? "the close's effects applied first" : "the late line's effects applied first";
    it(`a late BET earns what it adds to the round's rounded points: BET 1500, close, late BET 500 is 2 points, as in order (${order})`, async () => {
      // Issue 31: each late line's points were rounded on their own (1500 → 1, 500 → 0: 1 point).
      const round = `late-points-${randomUUID().slice(0, 8)}`;
      const player = await playerWithSession(ledger, { balance: 10_000n });
      await ok(sendWithdraw(ledger, betBody(player, { amount: 1_500, action_id: round })));
      await ok(sendDeposit(ledger, closeRoundBody(round, [1_500, 500], [0, 0])));
      const [close] = await publish(round);
      await ok(sendWithdraw(ledger, betBody(player, { amount: 500, action_id: round })));
      const [late] = await publish(round);
      if (!close || !late) throw new Error("events missing");
      await apply(closeFirst ? [close, late] : [late, close], ["loyalty"]);
      expect((await figures(player, [])).points).toBe(2n);
      // A late refund of the first bet takes back what it removes from the rounded total: 2000 → 500, 0 points.
      const first = (await journalOf(ledger, player.playerId)).find((line) => line.kind === "BET");
      if (!first) throw new Error("no bet");
      const refund = settleBody(
        player,
        { provider_tx_id: first.providerTxId, amount: 1_500, action_id: round, game: "crashGame" },
        "ROLL_BACK",
      );
      await ok(sendDeposit(ledger, refund));
      await apply(await publish(round), ["loyalty"]);
      expect((await figures(player, [])).points).toBe(0n);
    });
  }
});
