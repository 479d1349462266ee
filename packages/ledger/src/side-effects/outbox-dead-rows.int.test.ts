import { type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import { describe, expect, it } from "vitest";
import { betBody, closeRoundBody } from "../testing/callback-bodies.ts";
import { latestOutboxRow, outboxRowState, outboxRowsUnder } from "../testing/outbox-reads.ts";
import { seedOutbox } from "../testing/outbox-seed.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { applySideEffect } from "./apply-side-effect.ts";
import { recordSideEffectFailure, retryDeadSideEffects } from "./dead-letters.ts";
import { markApplied, relayOutbox, requeueUnapplied } from "./outbox-queries.ts";

/**
 * Issue 39: dead outbox rows (what an incident leaves behind) are the oldest published unapplied
 * rows; markApplied read the oldest 1,000 of those and so never reached a newer row, which the sweep
 * then redelivered for good. A database of its own: `markApplied` must mark exactly the rows here.
 */
const ledger = useTestLedger();
const DEAD = "close-round:1:dead-";

/** A round bet on and closed through the callbacks; its outbox row claimed by the relay. Returns the event. */
async function closedAndRelayed(roundId: string) {
  const player = await playerWithSession(ledger, { balance: 10_000n });
  expect((await sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: roundId }))).status).toBe(
    200,
  );
  expect((await sendDeposit(ledger, closeRoundBody(roundId, [1_000], [0]))).status).toBe(200);
  expect(await relayOutbox(ledger.ctx.db, async () => {})).toBe(1);
  return latestOutboxRow(ledger, "all");
}

async function apply(topics: readonly SideEffectTopic[], event: unknown): Promise<void> {
  for (const topic of topics) await applySideEffect({ ctx: ledger.ctx, input: { topic, event } });
}

describe("markApplied with dead outbox rows (issue 39)", () => {
  it("one markApplied marks a new close's row applied past 1,000 dead rows older than it, and leaves the dead rows as they were", async () => {
    await seedOutbox(ledger.db, DEAD, 1_000, { applied: null, published: 1, dead: 1 });
    const dead = { rows: 1_000, published: 1_000, applied: 0, dead: 1_000 };
    expect(await outboxRowsUnder(ledger, DEAD)).toEqual(dead);

    const { eventId, payload } = await closedAndRelayed("after-incident");
    await apply(sideEffectTopics, payload);
    expect(await markApplied(ledger.ctx.db)).toBe(1);
    expect(await outboxRowState(ledger, eventId)).toEqual({
      topic: "all",
      published: true,
      applied: true,
      dead: false,
    });
    expect(await outboxRowsUnder(ledger, DEAD)).toEqual(dead);
    // Applied, it is never handed back: the sweep (of any age) finds nothing, dead rows included.
    expect(await requeueUnapplied(ledger.ctx.db, 0)).toBe(0);
  });

  it("a dead row handed back by `retry --dead` is marked applied once its last effect lands, past the same dead rows", async () => {
    const roundId = "revived";
    const { eventId, payload } = await closedAndRelayed(roundId);
    await apply(["loyalty", "tournaments", "rg"], payload);
    // Reporting fails for good: the row is dead, and not applied whatever markApplied finds.
    await recordSideEffectFailure(ledger.ctx.db, {
      topic: "reporting",
      event: { eventId, tenantId: 1, roundId },
      error: "Error: broken close",
      maxAttempts: 1,
    });
    expect(await outboxRowState(ledger, eventId)).toMatchObject({ applied: false, dead: true });
    expect(await markApplied(ledger.ctx.db)).toBe(0);

    expect(await retryDeadSideEffects(ledger.ctx.db, { tenantId: 1, roundId })).toHaveLength(1);
    expect(await outboxRowState(ledger, eventId)).toMatchObject({ published: false, dead: false });
    expect(await relayOutbox(ledger.ctx.db, async () => {})).toBe(1);
    await apply(["reporting"], payload);
    expect(await markApplied(ledger.ctx.db)).toBe(1);
    expect(await outboxRowState(ledger, eventId)).toMatchObject({ applied: true, dead: false });
    expect(await outboxRowsUnder(ledger, DEAD)).toEqual({
      rows: 1_000,
      published: 1_000,
      applied: 0,
      dead: 1_000,
    });
  });
});
