import { describe, expect, it } from "vitest";
import { roundStatus } from "../reads/round-status.ts";
import { betBody, settleBody, txId } from "../testing/callback-bodies.ts";
import { balanceOf, journalOf } from "../testing/ledger-reads.ts";
import { playerWithSession } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";

const ledger = useTestLedger();

/**
 * Callbacks no healthy platform sends, each applied as decided (docs/contract-decisions.md): the
 * money follows the platform, the journal line is marked, and the round shows it.
 */
describe("anomalies: applied as decided, marked, shown on the round", () => {
  it("a WIN above maxwin is credited and marked", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n, maxwin: 5_000n });
    const bet = betBody(player, { amount: 1_000, action_id: "anomaly-maxwin" });
    await sendWithdraw(ledger, bet);
    const answer = await sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 9_000 }));
    expect(answer.status).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(18_000n);
    expect((await journalOf(ledger, player.playerId)).at(-1)).toMatchObject({
      kind: "WIN",
      amount: 9_000n,
      roundId: "anomaly-maxwin",
      anomaly: "win_above_maxwin",
    });
    // At the limit is ordinary.
    const other = betBody(player, { amount: 1_000, action_id: "anomaly-maxwin-2" });
    await sendWithdraw(ledger, other);
    await sendDeposit(ledger, settleBody(player, other, "WIN", { amount: 5_000 }));
    expect((await journalOf(ledger, player.playerId)).at(-1)?.anomaly).toBeNull();
  });

  it("a second WIN against a settled bet is credited and marked; the first is not", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: "anomaly-second-win" });
    await sendWithdraw(ledger, bet);
    expect((await sendDeposit(ledger, settleBody(player, bet, "WIN", { amount: 500 }))).status).toBe(200);
    const second = settleBody(player, bet, "WIN", { amount: 700, provider_tx_id: txId("win2") });
    expect((await sendDeposit(ledger, second)).status).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_200n);
    expect((await journalOf(ledger, player.playerId)).map((line) => [line.kind, line.anomaly])).toEqual([
      ["OPENING", null],
      ["BET", null],
      ["WIN", null],
      ["WIN", "second_win"],
    ]);
  });

  it("a ROLL_BACK naming another round refunds the bet in its own round, marked; the round shows both marks", async () => {
    const player = await playerWithSession(ledger, { balance: 10_000n });
    const bet = betBody(player, { amount: 2_000, action_id: "anomaly-round-a" });
    await sendWithdraw(ledger, bet);
    const rollback = settleBody(player, bet, "ROLL_BACK", { amount: 1_999, action_id: "anomaly-round-b" });
    const answer = await sendDeposit(ledger, rollback);
    expect(answer.status).toBe(200);
    expect(await balanceOf(ledger, player.playerId)).toBe(10_000n);
    expect((await journalOf(ledger, player.playerId)).at(-1)).toMatchObject({
      kind: "ROLL_BACK",
      amount: 2_000n,
      roundId: "anomaly-round-a",
      anomaly: "rollback_amount_differs,rollback_round_differs",
    });
    const status = await roundStatus({ ctx: ledger.ctx, input: { tenantId: 1, roundId: "anomaly-round-a" } });
    expect(status?.anomalies).toEqual([
      {
        kind: "ROLL_BACK",
        provider_tx_id: rollback.provider_tx_id,
        amount: 2_000n,
        anomalies: ["rollback_amount_differs", "rollback_round_differs"],
      },
    ]);
    // A resend is the stored answer: no second refund, no second mark.
    expect((await sendDeposit(ledger, rollback)).raw).toBe(answer.raw);
    expect((await journalOf(ledger, player.playerId)).filter((line) => line.anomaly)).toHaveLength(1);
  });
});
