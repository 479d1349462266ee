import { closeRoundEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { tournamentLeaderboard } from "@wallet/ledger/reads/leaderboard";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { markApplied, publishClaimed } from "@wallet/ledger/side-effects/outbox-queries";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { receiptsOf } from "@wallet/ledger/testing/dead-letters";
import { rgTotals } from "@wallet/ledger/testing/ledger-reads";
import { claimTwiceWithoutLocks } from "@wallet/ledger/testing/outbox-claims";
import { outboxRowState } from "@wallet/ledger/testing/outbox-reads";
import { playerWithSession, type TestPlayer } from "@wallet/ledger/testing/players";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { createTournament } from "@wallet/ledger/verbs/create-tournament";
import { eventually } from "@wallet/queue/testing/eventually";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSideEffectPath } from "./testing/side-effect-path.ts";

/**
 * Two relays that claim the same outbox rows, as on TiDB, whose `FOR UPDATE SKIP LOCKED` is a read
 * that locks nothing (docs/databases.md): both publish every effect of the same closes, and the real
 * consumers (in-process, on a real ledger and Redis, two jobs of a topic at once) apply each once, by
 * its `(topic, event id)` receipt. No relay runs: the test claims twice and publishes both claims
 * through the relay's own publisher.
 */
const ledger = useTestLedger();
let path: ReturnType<typeof startSideEffectPath>;
beforeAll(() => {
  ledger.ctx.config.loyaltyPointsPer1000 = 2;
  path = startSideEffectPath(ledger, inject("redisUrl"), {
    name: "outbox-double-claim-test",
    sweepEveryMs: 3_600_000,
    sweepAgeSeconds: 3_600,
    relay: false,
    concurrency: 2,
  });
});
afterAll(() => path.stop());

async function ok(answer: Promise<{ status: number }>) {
  expect((await answer).status).toBe(200);
}
const bet = async (player: TestPlayer, round: string, amount: number) => {
  const body = betBody(player, { amount, action_id: round });
  await ok(sendWithdraw(ledger, body));
  return body;
};

describe("two relays claiming the same outbox rows (TiDB's SKIP LOCKED locks nothing)", () => {
  it("both publish every effect, and each is applied once: points, counters, scores, reports and receipts as after one delivery", async () => {
    const tournament = await createTournament({
      ctx: ledger.ctx,
      input: {
        tenantId: 1,
        game: "crashGame",
        name: "double claim",
        startsAt: new Date(Date.now() - 3_600_000),
        endsAt: new Date(Date.now() + 3_600_000),
      },
    });
    const alice = await playerWithSession(ledger, { balance: 10_000n });
    const bob = await playerWithSession(ledger, { balance: 10_000n });
    // Round A: Alice loses 1000, Bob cashes 2000 out at 1.5 (paid 3000). B: Alice loses 500. C: Bob loses 1000.
    await bet(alice, "double-a", 1_000);
    const bobWin = await bet(bob, "double-a", 2_000);
    await ok(sendDeposit(ledger, settleBody(bob, bobWin, "WIN", { amount: 3_000 })));
    await ok(sendDeposit(ledger, closeRoundBody("double-a", [1_000, 2_000], [0, 1.5])));
    await bet(alice, "double-b", 500);
    await ok(sendDeposit(ledger, closeRoundBody("double-b", [500], [0])));
    await bet(bob, "double-c", 1_000);
    await ok(sendDeposit(ledger, closeRoundBody("double-c", [1_000], [0])));
    const rounds = ["double-a", "double-b", "double-c"];

    // Read, read, mark, mark: each claim holds the three closes' rows.
    const [first, second] = await claimTwiceWithoutLocks(ledger);
    expect(first.map((row) => row.eventId)).toEqual(rounds.map((round) => closeRoundEventId(1, round)));
    expect(second).toEqual(first);

    const { publish, unknownTopic } = path.publisher;
    await Promise.all(
      [first, second].map((claim) => publishClaimed(ledger.ctx.db, claim, publish, unknownTopic)),
    );
    const delivered = async (topic: string) => ({
      applied: (await path.value("wallet_side_effects_total", { topic, outcome: "applied" })) ?? 0,
      duplicate: (await path.value("wallet_side_effects_total", { topic, outcome: "duplicate" })) ?? 0,
    });
    const everyDelivery = async () => {
      const counts = await Promise.all(sideEffectTopics.map(delivered));
      return counts.every(({ applied, duplicate }) => applied + duplicate === 6) ? counts : undefined;
    };
    // Each topic got its three events twice (two jobs); one delivery applied them, the other found receipts.
    expect(await eventually(everyDelivery, 30_000, "both claims' jobs consumed")).toEqual(
      sideEffectTopics.map(() => ({ applied: 3, duplicate: 3 })),
    );
    expect(await path.value("wallet_outbox_published_total")).toBe(24);

    // One receipt per event and topic, and the relay's next turn marks the three rows applied.
    for (const round of rounds) expect(await receiptsOf(ledger.db, closeRoundEventId(1, round))).toBe(4);
    expect(await markApplied(ledger.ctx.db)).toBe(3);
    for (const round of rounds)
      expect(await outboxRowState(ledger, closeRoundEventId(1, round))).toEqual({
        topic: "all",
        published: true,
        applied: true,
        dead: false,
      });

    // Loyalty at 2 points per 1000 millis staked, once: Alice 1500 → 3, Bob 3000 → 6.
    const points = async (player: TestPlayer) =>
      (await playerSummary({ ctx: ledger.ctx, input: { tenantId: 1, userId: player.userId } }))
        ?.loyalty_points;
    expect({ alice: await points(alice), bob: await points(bob) }).toEqual({ alice: 3n, bob: 6n });
    // Responsible-gaming counters, once: two rounds each, their stakes.
    expect({
      alice: await rgTotals(ledger, alice.playerId),
      bob: await rgTotals(ledger, bob.playerId),
    }).toEqual({ alice: { staked: 1_500n, rounds: 2 }, bob: { staked: 3_000n, rounds: 2 } });
    // The tournament scores payouts, once: Bob's 3000.
    const board = await tournamentLeaderboard({
      ctx: ledger.ctx,
      input: { tenantId: 1, tournamentId: tournament.tournamentId },
    });
    expect(board?.leaderboard.map((row) => [row.user_id, row.score])).toEqual([
      [bob.userId, 3_000n],
      [alice.userId, 0n],
    ]);
    // Each round reconciled and reported once (a second report would be revision 2).
    for (const round of rounds)
      expect(await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } })).toMatchObject({
        status: "closed",
        side_effects: { loyalty: "applied", tournaments: "applied", reporting: "applied", rg: "applied" },
        reconciliation: { status: "matched", revision: 1 },
        report: { eventId: `round-report:1:${round}`, reconciliation: "matched" },
      });
  });
});
