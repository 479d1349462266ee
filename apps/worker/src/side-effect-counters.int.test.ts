import { randomUUID } from "node:crypto";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { outboxRowState } from "@wallet/ledger/testing/outbox-reads";
import { seedOutboxRow } from "@wallet/ledger/testing/outbox-seed";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { eventually } from "@wallet/queue/testing/eventually";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSideEffectPath } from "./testing/side-effect-path.ts";

/**
 * Two of the side-effect path's counters, moved by the real relay and consumers (in-process, on a
 * real ledger and Redis) and read from the worker's registry: reconciliation mismatches count rounds,
 * not revisions, and an outbox row of a topic this version does not know is counted (issue 34).
 */
const ledger = useTestLedger();
let path: ReturnType<typeof startSideEffectPath>;
beforeAll(() => {
  // No sweep hands a row back during the test: each row is claimed once, and counted once.
  path = startSideEffectPath(ledger, inject("redisUrl"), {
    name: "side-effect-counters-test",
    sweepEveryMs: 3_600_000,
    sweepAgeSeconds: 3_600,
  });
});
afterAll(() => path.stop());

const value = (name: string, labels?: Record<string, string>) => path.value(name, labels);
/** Reporting effects applied so far: the consumer counts a batch's mismatches in the same step. */
const reportsApplied = () => value("wallet_side_effects_total", { topic: "reporting", outcome: "applied" });
const untilReports = (count: number) =>
  eventually(
    async () => ((await reportsApplied()) === count ? true : undefined),
    30_000,
    `${count} reports applied`,
  );
const reconciliationOf = async (roundId: string) =>
  (await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId } }))?.reconciliation;

async function ok(answer: Promise<{ status: number }>) {
  expect((await answer).status).toBe(200);
}

describe("the side-effect path's counters", () => {
  it("a round reconciled twice in mismatch (a late WIN that still disagrees) moves wallet_reconciliation_mismatches_total by 1, not 2", async () => {
    const round = `mismatch-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: round });
    await ok(sendWithdraw(ledger, bet));
    const before = (await reportsApplied()) ?? 0;
    // Closed with a coefficient of 2 (a payout of 2,000) that the ledger never paid: a mismatch.
    await ok(sendDeposit(ledger, closeRoundBody(round, [1_000], [2])));
    await untilReports(before + 1);
    expect(await reconciliationOf(round)).toMatchObject({ status: "mismatch", revision: 1 });
    expect(await value("wallet_reconciliation_mismatches_total")).toBe(1);

    // A WIN of 1,500 after the close: the round is reconciled and reported again, still in mismatch.
    await ok(sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 1_500 })));
    await untilReports(before + 2);
    expect(await reconciliationOf(round)).toMatchObject({ status: "mismatch", revision: 2 });
    expect(await value("wallet_reconciliation_mismatches_total")).toBe(1);
  });

  it("an outbox row of a topic this version does not know is counted and logged, kept unapplied, and the relay goes on", async () => {
    const eventId = `close-round:1:bonus-${randomUUID().slice(0, 8)}`;
    await seedOutboxRow(ledger.db, { tenantId: 1, topic: "bonus", eventId, payload: "{}" });
    await eventually(
      async () => ((await value("wallet_outbox_unknown_topic_total")) === 1 ? true : undefined),
      30_000,
      "the unknown topic counted",
    );
    // Not lost: still in the outbox, claimed, neither applied nor dead (the sweep would hand it back).
    expect(await outboxRowState(ledger, eventId)).toEqual({
      topic: "bonus",
      published: true,
      applied: false,
      dead: false,
    });
    const logged = path.lines
      .map((line) => JSON.parse(line))
      .filter((line) => line.topics?.includes("bonus"));
    expect(logged).toEqual([
      expect.objectContaining({
        level: 50,
        rows: 1,
        eventIds: [eventId],
        msg: expect.stringMatching(/^outbox rows of a topic this version does not know/),
      }),
    ]);

    // The relay did not stop on it: the next close's effects are all applied.
    const round = `after-${randomUUID().slice(0, 8)}`;
    const player = await playerWithSession(ledger, { balance: 10_000n });
    await ok(sendWithdraw(ledger, betBody(player, { amount: 1_000, action_id: round })));
    await ok(sendDeposit(ledger, closeRoundBody(round, [1_000], [0])));
    const effects = await eventually(
      async () => {
        const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: round } });
        const all = Object.values(status?.side_effects ?? {});
        return all.length === 4 && all.every((state) => state === "applied")
          ? status?.side_effects
          : undefined;
      },
      30_000,
      "the next close's effects",
    );
    expect(effects).toEqual({
      loyalty: "applied",
      tournaments: "applied",
      reporting: "applied",
      rg: "applied",
    });
    expect(await value("wallet_outbox_unknown_topic_total")).toBe(1);
  });
});
