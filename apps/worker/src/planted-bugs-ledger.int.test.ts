import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { betBody, closeRoundBody, settleBody, txId } from "@wallet/ledger/testing/callback-bodies";
import { balanceOf, countRows, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { outboxRowState } from "@wallet/ledger/testing/outbox-reads";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { sendDeposit, sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { type TestLedger, useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { verifyLedger } from "@wallet/ledger/verify";
import { describe, expect, it } from "vitest";
import { type PlantedBug, plantedBugRates, selectedOneIn } from "./planted-bugs.ts";
import { ledgerTestHooks, testCrashAt } from "./test-crash-points.ts";

/**
 * The planted bugs that live in the ledger (`TEST_PLANTED_BUG`, `planted-bugs.ts`), on a real ledger:
 * each test shows the breach the switch claims, and the same traffic without it shows none.
 */
const ledger = useTestLedger();

/** The test ledger as the worker runs it with `TEST_PLANTED_BUG=bug` (the hooks main.ts builds). */
function planted(bug: PlantedBug): TestLedger {
  const testHooks = ledgerTestHooks({ TEST_PLANTED_BUG: bug, TEST_HOLD_BATCH_MS: 1 }, testCrashAt(undefined));
  return { ...ledger, ctx: { ...ledger.ctx, testHooks } };
}

/** A fresh id whose key the rule `selectedOneIn(n, …)` picks (or, with `selected` false, passes over). */
function idWhere(n: number, selected: boolean, make: () => string, keyOf = (id: string) => id): string {
  for (;;) {
    const id = make();
    if (selectedOneIn(n, keyOf(id)) === selected) return id;
  }
}

const problemsOf = async (walletOf: number) =>
  (await verifyLedger(ledger.db)).problems.filter((problem) => problem.walletId === walletOf);

describe("TEST_PLANTED_BUG=skip-idempotency-lookup", () => {
  it("a resent BET debits twice and a resent WIN credits twice; without the switch each resend replays", async () => {
    const buggy = planted("skip-idempotency-lookup");
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: txId("round") });
    const first = await sendWithdraw(buggy, bet);
    const resent = await sendWithdraw(buggy, bet);
    expect([first.status, resent.status, resent.replayed]).toEqual([200, 200, false]);
    expect(resent.json.data?.operator_tx_id).not.toBe(first.json.data?.operator_tx_id);
    expect(resent.json.data?.new_balance).toBe(8_000);
    const win = settleBody(player, bet, "WIN", { amount: 500 });
    await sendDeposit(buggy, win);
    await sendDeposit(buggy, win);

    expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
    const lines = (await journalOf(ledger, player.playerId)).map((line) => [line.providerTxId, line.amount]);
    expect(lines.slice(1)).toEqual([
      [bet.provider_tx_id, -1_000n],
      [bet.provider_tx_id, -1_000n],
      [win.provider_tx_id, 500n],
      [win.provider_tx_id, 500n],
    ]);
    // One stored answer and one bet row each: the keys kept the first, the money moved twice.
    expect(await countRows(ledger, "idempotency_records", String(bet.provider_tx_id))).toBe(1);
    expect(await countRows(ledger, "bets", String(bet.provider_tx_id))).toBe(1);

    const control = await playerWithSession(ledger, { balance: 10_000n });
    const controlBet = betBody(control, { amount: 1_000, action_id: txId("round") });
    await sendWithdraw(ledger, controlBet);
    expect((await sendWithdraw(ledger, controlBet)).replayed).toBe(true);
    expect(await balanceOf(ledger, control.playerId)).toBe(9_000n);
  });
});

describe("TEST_PLANTED_BUG=skip-journal-line", () => {
  it(`the line of a call in ${plantedBugRates.journalLine} (by provider_tx_id) is not journalled while its balance moves; ledger:verify names the wallet`, async () => {
    const buggy = planted("skip-journal-line");
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const round = txId("round");
    const kept = betBody(player, {
      amount: 1_000,
      action_id: round,
      provider_tx_id: idWhere(plantedBugRates.journalLine, false, () => txId("bet")),
    });
    const dropped = betBody(player, {
      amount: 2_000,
      action_id: round,
      provider_tx_id: idWhere(plantedBugRates.journalLine, true, () => txId("bet")),
    });
    expect((await sendWithdraw(buggy, kept)).status).toBe(200);
    expect((await sendWithdraw(buggy, dropped)).json.data?.new_balance).toBe(7_000);

    expect(await balanceOf(ledger, player.playerId)).toBe(7_000n);
    const journalled = (await journalOf(ledger, player.playerId)).map((line) => line.providerTxId);
    expect(journalled.slice(1)).toEqual([kept.provider_tx_id]);
    expect((await problemsOf(player.playerId)).map((problem) => problem.problem)).toEqual([
      "balance 7000 != journal sum 9000; journal lines numbered 1..2 (2 lines) for seq 3",
    ]);
  });
});

describe("TEST_PLANTED_BUG=skip-outbox-row", () => {
  it(`a CLOSE_ROUND in ${plantedBugRates.closeOutbox} (by its round) commits without its outbox row; the others keep theirs`, async () => {
    const buggy = planted("skip-outbox-row");
    // Chosen by the close's event id, one per round (`close-round:<operator>:<round>`).
    const eventOf = (round: string) => closeRoundEventId(1, round);
    const lost = idWhere(plantedBugRates.closeOutbox, true, () => txId("round"), eventOf);
    const kept = idWhere(plantedBugRates.closeOutbox, false, () => txId("round"), eventOf);
    for (const round of [lost, kept])
      expect((await sendDeposit(buggy, closeRoundBody(round, [1_000], [0]))).status).toBe(200);

    expect(await outboxRowState(ledger, eventOf(lost))).toBeUndefined();
    expect(await outboxRowState(ledger, eventOf(kept))).toMatchObject({ topic: "all" });
    // The rule picks rounds, not calls: a resend of the lost close replays and owes nothing either.
    expect((await sendDeposit(buggy, closeRoundBody(lost, [1_000], [0]))).replayed).toBe(true);
    expect(await outboxRowState(ledger, eventOf(lost))).toBeUndefined();
  });
});
