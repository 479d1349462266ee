import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { describe, expect, it } from "vitest";
import { loyaltyAwards } from "../schema/loyalty.ts";
import { roundReconciliations } from "../schema/round-reports.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";
import { reconcileRound, summaryText } from "../side-effects/reconcile.ts";
import { betBody, closeRoundBody, settleBody } from "../testing/callback-bodies.ts";
import { playerWithSession, type TestPlayer } from "../testing/players.ts";
import { sendDeposit, sendWithdraw } from "../testing/send-callbacks.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { roundsAtRisk } from "./rounds-at-risk.ts";

// Histories played through the ledger's own verbs around a point where the data "ends": what a
// failover leaves. Lossless, every round in play is only to check; with lines the platform was
// answered 200 for and the ledger does not hold, each round that shows it is lost, naming its players.
const ledger = useTestLedger();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The moment between what came before and after: the verbs stamp rows with the server's clock, this machine's. */
async function pointBetween(): Promise<Date> {
  await pause(30);
  const point = new Date();
  await pause(30);
  return point;
}

async function ok(answer: Promise<{ status: number; raw: string }>) {
  const { status, raw } = await answer;
  if (status !== 200) throw new Error(`${status} ${raw}`);
}

const bet = (player: TestPlayer, round: string, amount = 1_000) =>
  betBody(player, { amount, action_id: round });
const close = (round: string, stakes: number[], coefficients: number[], tenantId = 1) =>
  sendDeposit(ledger, closeRoundBody(round, stakes, coefficients, tenantId), tenantId);

/** What the reporting effect stores for a close: the reconciliation of the close with our bets. */
async function reconcile(
  round: string,
  stakes: bigint[],
  coefficients: number[],
  ours: Parameters<typeof reconcileRound>[2],
) {
  const result = reconcileRound(stakes, coefficients, ours);
  await ledger.db.insert(roundReconciliations).values({
    tenantId: 1,
    roundId: round,
    status: result.status,
    differences: JSON.stringify(result.differences),
    summary: summaryText(result.summary),
  });
}

const listedOf = async (point: Date, prefix: string) =>
  (await roundsAtRisk(ledger.db, { point })).filter((round) => round.roundId.startsWith(prefix));

describe("rounds at risk, lost or to check", () => {
  it("a lossless history: rounds open at the point or in play are to check, none lost, each naming its players", async () => {
    const [a, b] = [await playerWithSession(ledger), await playerWithSession(ledger)];
    const c = await playerWithSession(ledger, { tenantId: 2 });
    // Before the point: a round played and closed; a round whose bets are placed; a voided round's bet.
    const done = [bet(a, "calm-done"), bet(b, "calm-done")];
    for (const body of done) await ok(sendWithdraw(ledger, body));
    await ok(close("calm-done", [1_000, 1_000], [0, 0]));
    const straddling = [bet(a, "calm-straddles"), bet(c, "calm-straddles")];
    await ok(sendWithdraw(ledger, straddling[0] as Record<string, unknown>));
    await ok(sendWithdraw(ledger, straddling[1] as Record<string, unknown>, 2));
    const voided = bet(b, "calm-voided");
    await ok(sendWithdraw(ledger, voided));
    const point = await pointBetween();
    // After it: the straddling round won and closed, matched; the void refunded; a round in play.
    await ok(
      sendDeposit(ledger, settleBody(a, straddling[0] as Record<string, unknown>, "WIN", { amount: 2_000 })),
    );
    await ok(close("calm-straddles", [1_000], [2]));
    await reconcile(
      "calm-straddles",
      [1_000n],
      [2],
      [
        {
          providerTxId: String(straddling[0]?.provider_tx_id),
          kind: "BET",
          amount: 1_000n,
          wonAmount: 2_000n,
          status: "won",
        },
      ],
    );
    await ok(sendDeposit(ledger, settleBody(b, voided, "ROLL_BACK")));
    await ok(sendWithdraw(ledger, bet(b, "calm-in-play")));

    const listed = await listedOf(point, "calm-");
    expect(listed.filter((round) => round.category === "lost")).toEqual([]);
    expect(
      listed.map((round) => [round.tenantId, round.roundId, round.category, round.reason, round.userIds]),
    ).toEqual([
      [1, "calm-straddles", "check", "open_at_point", [a.userId]],
      [1, "calm-voided", "check", "open_at_point", [b.userId]],
      [1, "calm-in-play", "check", "unclosed", [b.userId]],
      [2, "calm-straddles", "check", "open_at_point", [c.userId]],
    ]);
  });

  it("a planted loss: each round that shows an acknowledged line missing is lost, with its players' user ids", async () => {
    const [a, b] = [await playerWithSession(ledger), await playerWithSession(ledger)];
    const c = await playerWithSession(ledger, { tenantId: 2 });
    // Before the point: bets that survive. `lostBet` and `lostClose`'s close were acknowledged and
    // never reached this ledger: a replica that was behind.
    await ok(sendWithdraw(ledger, bet(a, "loss-win-refused")));
    const lostBet = bet(b, "loss-win-refused");
    const survivor = bet(a, "loss-mismatch", 1_000);
    await ok(sendWithdraw(ledger, survivor));
    const point = await pointBetween();
    // After it: the lost bet's WIN is refused (400); a ROLL_BACK finds no bet (tenant 2); a close lists
    // a bet of 500 won at 2.00 that the ledger never saw; a lost close's loyalty effect arrives.
    const refused = await sendDeposit(ledger, settleBody(b, lostBet, "WIN", { amount: 1_500 }));
    expect(refused.status).toBe(400);
    const orphan = bet(c, "loss-rollback");
    await ok(sendDeposit(ledger, settleBody(c, orphan, "ROLL_BACK"), 2));
    await ok(close("loss-mismatch", [1_000, 500], [0, 2]));
    await reconcile(
      "loss-mismatch",
      [1_000n, 500n],
      [0, 2],
      [
        {
          providerTxId: String(survivor.provider_tx_id),
          kind: "BET",
          amount: 1_000n,
          wonAmount: 0n,
          status: "open",
        },
      ],
    );
    await ledger.db
      .insert(sideEffectReceipts)
      .values({ topic: "loyalty", eventId: closeRoundEventId(1, "loss-effects") });
    await ledger.db
      .insert(loyaltyAwards)
      .values({ tenantId: 1, roundId: "loss-effects", playerId: a.playerId, staked: 1_000n, points: 1n });

    const listed = await listedOf(point, "loss-");
    expect(
      listed.map((round) => [round.tenantId, round.roundId, round.category, round.reason, round.userIds]),
    ).toEqual([
      [1, "loss-effects", "lost", "effects_without_close", [a.userId]],
      [1, "loss-win-refused", "lost", "win_for_unknown_bet", [a.userId, b.userId].sort()],
      [1, "loss-mismatch", "lost", "mismatch", [a.userId]],
      [2, "loss-rollback", "lost", "rollback_for_unknown_bet", [c.userId]],
    ]);
    const refusedRound = listed.find((round) => round.roundId === "loss-win-refused");
    expect(refusedRound?.evidence[0]).toMatch(
      new RegExp(
        `^WIN \\S+ of user ${b.userId} refused \\(400\\) at \\S+: its bet ${lostBet.provider_tx_id} is unknown`,
      ),
    );
    expect(refusedRound?.evidence[1]).toBe("open at the point the data ends");
  });
});
