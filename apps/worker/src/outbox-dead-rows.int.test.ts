import { closeRoundEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { receiptsOf } from "@wallet/ledger/testing/dead-letters";
import { outboxRowState, outboxRowsUnder } from "@wallet/ledger/testing/outbox-reads";
import { seedOutbox, seedOutboxRow } from "@wallet/ledger/testing/outbox-seed";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { eventually } from "@wallet/queue/testing/eventually";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSideEffectPath } from "./testing/side-effect-path.ts";

/**
 * Issue 39 through the real relay and consumers (in-process, on a real ledger and Redis): with the
 * 1,000 dead outbox rows an incident leaves behind, a new round's row was never marked applied and
 * the sweep redelivered its four effects at every sweep, for good (12 deliveries in 15 s).
 */
const ledger = useTestLedger();
const DEAD = "close-round:1:dead-";
let path: ReturnType<typeof startSideEffectPath>;
beforeAll(async () => {
  await seedOutbox(ledger.db, DEAD, 1_000, { applied: null, published: 1, dead: 1 });
  // The test's clock of sweeps, so that it waits for sweeps and never sleeps: a row of a topic no
  // version knows is claimed, left unapplied, handed back by each sweep and claimed (and counted in
  // wallet_outbox_unknown_topic_total) again.
  await seedOutboxRow(ledger.db, {
    tenantId: 1,
    topic: "bonus",
    eventId: "close-round:1:clock",
    payload: "{}",
  });
  path = startSideEffectPath(ledger, inject("redisUrl"), {
    name: "outbox-dead-rows-test",
    sweepEveryMs: 250,
    sweepAgeSeconds: 3,
  });
});
afterAll(() => path.stop());

const sweepsSoFar = async () => (await path.value("wallet_outbox_unknown_topic_total")) ?? 0;

describe("the relay with 1,000 dead outbox rows (issue 39)", () => {
  it("marks a new round's row applied and delivers each of its four effects once, however many sweeps pass", async () => {
    const round = "after-incident";
    const eventId = closeRoundEventId(1, round);
    const player = await playerWithSession(ledger, { balance: 10_000n });
    expect((await sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: round }))).status).toBe(
      200,
    );
    expect((await sendDeposit(ledger, closeRoundBody(round, [1_000], [0]))).status).toBe(200);
    await eventually(
      async () => ((await receiptsOf(ledger.db, eventId)) === 4 ? true : undefined),
      30_000,
      "the four effects applied",
    );

    // Two more sweeps, each of which would hand back a row left unapplied past its 3 s.
    const sweeps = await sweepsSoFar();
    await eventually(
      async () => ((await sweepsSoFar()) >= sweeps + 2 ? true : undefined),
      60_000,
      "two sweeps",
    );

    const count = async (topic: string, outcome: string) =>
      (await path.value("wallet_side_effects_total", { topic, outcome })) ?? 0;
    const delivered = async (topic: string) => [
      topic,
      { applied: await count(topic, "applied"), duplicate: await count(topic, "duplicate") },
    ];
    expect({
      row: await outboxRowState(ledger, eventId),
      // Published once, one effect per topic (the dead rows and the clock are published nowhere) ...
      published: await path.value("wallet_outbox_published_total"),
      // ... and each consumer applied it once and was never handed it again.
      delivered: Object.fromEntries(await Promise.all(sideEffectTopics.map(delivered))),
      receipts: await receiptsOf(ledger.db, eventId),
    }).toEqual({
      row: { topic: "all", published: true, applied: true, dead: false },
      published: 4,
      delivered: Object.fromEntries(sideEffectTopics.map((topic) => [topic, { applied: 1, duplicate: 0 }])),
      receipts: 4,
    });
    // The dead rows are as they were: still owed, waiting for `retry --dead`.
    expect(await outboxRowsUnder(ledger, DEAD)).toEqual({
      rows: 1_000,
      published: 1_000,
      applied: 0,
      dead: 1_000,
    });
  });
});
