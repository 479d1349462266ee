import { randomUUID } from "node:crypto";
import { type CloseRoundEvent, closeRoundEvent } from "@wallet/contracts/side-effects";
import { describe, expect, it } from "vitest";
import { roundStatus } from "../reads/round-status.ts";
import { betBody, closeRoundBody, settleBody } from "../testing/callback-bodies.ts";
import { playerWithSession, type TestPlayer } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { applySideEffects } from "./apply-side-effect.ts";
import { relayOutbox } from "./outbox-queries.ts";
import { readRoundSummaries } from "./round-summary.ts";

// wallet_reconciliation_mismatches_total counts what `mismatches` says: rounds that came to disagree,
// not every revision of a round that already did (issue 34).
const ledger = useTestLedger();

/**
 * Publishes every unpublished outbox row and returns the events of `round`, each with the round as
 * read now (as the relay ships it): its revision is the round's at publishing, whenever it is applied.
 */
async function publish(round: string): Promise<CloseRoundEvent[]> {
  const events: CloseRoundEvent[] = [];
  await relayOutbox(ledger.db, async (rows) => {
    for (const row of rows)
      if (row.topic === "reporting") events.push(closeRoundEvent.parse(JSON.parse(row.payload)));
  });
  const mine = events.filter((event) => event.roundId === round);
  const summaries = await readRoundSummaries(ledger.ctx, mine);
  return mine.map((event) => ({ ...event, round: summaries.get(event.eventId) }));
}

/** The reporting effect of `events`, in one batch: how many rounds it counted as mismatches. */
async function report(events: CloseRoundEvent[]): Promise<number> {
  return (await applySideEffects({ ctx: ledger.ctx, input: { topic: "reporting", events } })).mismatches;
}

async function stored(round: string) {
  const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
  return { status: status?.reconciliation?.status, revision: status?.reconciliation?.revision };
}

async function ok(answer: Promise<{ status: number }>) {
  expect((await answer).status).toBe(200);
}

/** A player's round: a BET of 1,000 closed with a coefficient of 2 the ledger never paid (a mismatch). */
async function unpaidRound(): Promise<{ round: string; player: TestPlayer; bet: Record<string, unknown> }> {
  const round = `mismatch-${randomUUID().slice(0, 8)}`;
  const player = await playerWithSession(ledger, { balance: 10_000n });
  const bet = betBody(player, { amount: 1_000, action_id: round });
  await ok(sendWithdraw(ledger, bet));
  await ok(sendDeposit(ledger, closeRoundBody(round, [1_000], [2])));
  return { round, player, bet };
}

describe("reconciliation mismatches are counted per round, not per revision", () => {
  it("a round reconciled twice in mismatch (a late WIN that still disagrees) counts once", async () => {
    const { round, player, bet } = await unpaidRound();
    expect(await report(await publish(round))).toBe(1);
    expect(await stored(round)).toEqual({ status: "mismatch", revision: 1 });
    // A WIN of 1,500 after the close: the round is reconciled again, and still disagrees (2,000 closed).
    await ok(sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 1_500 })));
    const late = await publish(round);
    expect(late.map((event) => event.late !== undefined)).toEqual([true]);
    expect(await report(late)).toBe(0);
    expect(await stored(round)).toEqual({ status: "mismatch", revision: 2 });
  });

  it("a round that matched at its close and disagrees after a late line counts once, at that revision", async () => {
    const round = `matched-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: round });
    await ok(sendWithdraw(ledger, bet));
    await ok(sendDeposit(ledger, closeRoundBody(round, [1_000], [0])));
    expect(await report(await publish(round))).toBe(0);
    expect(await stored(round)).toEqual({ status: "matched", revision: 1 });
    // A WIN the close never listed (coefficient 0): now the round disagrees.
    await ok(sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 500 })));
    expect(await report(await publish(round))).toBe(1);
    expect(await stored(round)).toEqual({ status: "mismatch", revision: 2 });
  });

  it("both revisions of a mismatching round in one batch, or the later applied first, count once", async () => {
    const together = await unpaidRound();
    const [close] = await publish(together.round);
    await ok(sendDeposit(ledger, settleBody(together.player, together.bet, "WIN", { amount: 1_500 })));
    const [late] = await publish(together.round);
    if (!close || !late) throw new Error("no events");
    expect(await report([close, late])).toBe(1);
    expect(await stored(together.round)).toEqual({ status: "mismatch", revision: 2 });

    // The close's reporting job (revision 1) retried after the late event's (2) was applied: it
    // replaces nothing, so it counts nothing.
    const reversed = await unpaidRound();
    const [first] = await publish(reversed.round);
    await ok(sendDeposit(ledger, settleBody(reversed.player, reversed.bet, "WIN", { amount: 1_500 })));
    const [second] = await publish(reversed.round);
    if (!first || !second) throw new Error("no events");
    expect(await report([second])).toBe(1);
    expect(await report([first])).toBe(0);
    expect(await stored(reversed.round)).toEqual({ status: "mismatch", revision: 2 });
  });
});
