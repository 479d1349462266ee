import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { betBody, closeRoundBody } from "../testing/callback-bodies.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { applySideEffects } from "./apply-side-effect.ts";
import { relayOutbox } from "./outbox-queries.ts";

/**
 * A side-effect job is applied in transactions of bounded size (issue 42): a round's players are
 * bounded by nothing but its close's bets, so one round may take several transactions, each with a
 * receipt of its own, and still count once. Loyalty here, with 3 units a transaction: a receipt and
 * two players.
 */
const ledger = useTestLedger();

/** The round's CLOSE_ROUND event as the relay publishes it (its summary read by the consumer). */
async function closeEvent(roundId: string) {
  const published: Array<Record<string, unknown>> = [];
  await relayOutbox(ledger.db, async (rows) => {
    for (const row of rows) published.push(JSON.parse(row.payload));
  });
  const event = published.find((payload) => payload.eventId === closeRoundEventId(1, roundId));
  if (!event) throw new Error(`no outbox event for ${roundId}`);
  return event as { eventId: string; tenantId: number; roundId: string; game: string; providerTxId: string };
}

async function pointsOf(playerIds: number[]) {
  const [rows] = (await ledger.db.execute(
    sql`SELECT player_id, points FROM loyalty_balances WHERE player_id IN (${sql.join(playerIds, sql`, `)})`,
  )) as unknown as [Array<{ player_id: number | string; points: number | string }>];
  const points = new Map(rows.map((row) => [Number(row.player_id), Number(row.points)]));
  return playerIds.map((id) => points.get(id) ?? 0);
}

async function receiptsOf(eventId: string) {
  const [rows] = (await ledger.db.execute(
    sql`SELECT event_id FROM side_effect_receipts WHERE topic = 'loyalty' AND event_id LIKE ${`${eventId}%`} ORDER BY event_id`,
  )) as unknown as [Array<{ event_id: string }>];
  return rows.map((row) => row.event_id);
}

describe("a side-effect job in transactions of at most `unitsPerTransaction` receipts and players", () => {
  it("a round of 7 players goes in 4 parts, each its own receipt; a part that fails leaves those before it, the retry applies the rest once; the event counts once", async () => {
    const roundId = `many-players-${Date.now()}`;
    const players = await Promise.all(
      Array.from({ length: 7 }, () => playerWithSession(ledger, { balance: 10_000n })),
    );
    for (const player of players)
      expect(
        (await sendWithdraw(ledger, betBody(player, { amount: 2_000, action_id: roundId }))).status,
      ).toBe(200);
    const close = closeRoundBody(
      roundId,
      players.map(() => 2_000),
      players.map(() => 0),
    );
    expect((await sendDeposit(ledger, close)).status).toBe(200);
    const event = await closeEvent(roundId);
    const ids = players.map((player) => player.playerId).sort((a, b) => a - b);

    // The third transaction fails before its commit (a lost connection, a crash): the first two stay.
    let commits = 0;
    const failThird = async () => {
      commits += 1;
      if (commits === 3) throw new Error("the third transaction fails");
    };
    const input = { topic: "loyalty" as const, events: [event], unitsPerTransaction: 3 };
    await expect(
      applySideEffects({ ctx: ledger.ctx, input: { ...input, testHookBeforeCommit: failThird } }),
    ).rejects.toThrow("the third transaction fails");
    expect(await receiptsOf(event.eventId)).toEqual([`${event.eventId}#1/4`, `${event.eventId}#2/4`]);
    // Two points each (2,000 staked, 1 point a 1,000): the first four players, in id order, only.
    expect(await pointsOf(ids)).toEqual([2, 2, 2, 2, 0, 0, 0]);

    // The job's retry: parts 1 and 2 skipped (no commit of theirs), 3 and 4 applied, the event once.
    commits = 0;
    const count = async () => {
      commits += 1;
    };
    const retried = await applySideEffects({
      ctx: ledger.ctx,
      input: { ...input, testHookBeforeCommit: count },
    });
    expect([retried.applied, retried.duplicates, retried.rows, commits]).toEqual([1, 0, 3, 2]);
    expect(await receiptsOf(event.eventId)).toEqual([
      event.eventId,
      `${event.eventId}#1/4`,
      `${event.eventId}#2/4`,
      `${event.eventId}#3/4`,
    ]);
    expect(await pointsOf(ids)).toEqual([2, 2, 2, 2, 2, 2, 2]);

    // Delivered again (a sweep's republish): nothing applied, nothing moved.
    const again = await applySideEffects({ ctx: ledger.ctx, input });
    expect([again.applied, again.duplicates]).toEqual([0, 1]);
    expect(await pointsOf(ids)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    const [awards] = (await ledger.db.execute(
      sql`SELECT COUNT(*) AS n, SUM(points) AS points FROM loyalty_awards WHERE round_id = ${roundId}`,
    )) as unknown as [Array<{ n: number | string; points: number | string }>];
    expect([Number(awards[0]?.n), Number(awards[0]?.points)]).toEqual([7, 14]);
  });
});
