import { stringifyJson } from "@wallet/contracts/json";
import { type RoundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import type { Tx } from "../db.ts";
import { roundReconciliations, roundReports } from "../schema/round-reports.ts";
import { reconcileRound } from "./reconcile.ts";
import { betsInRound, type PlayerInRound, type RoundClose } from "./round-activity.ts";

/**
 * The round report (bets, stakes, payouts, GGR per currency) and the reconciliation of the
 * platform's arrays against our bets, stored together; the report is returned for publishing.
 */
export async function reportRound(
  tx: Tx,
  tenantId: number,
  roundId: string,
  close: RoundClose,
  players: PlayerInRound[],
): Promise<{ report: RoundReport; mismatch: boolean }> {
  const reconciliation = reconcileRound(
    close.stakes,
    close.cashOutCoefficients,
    await betsInRound(tx, tenantId, roundId),
  );
  await tx.insert(roundReconciliations).values({
    tenantId,
    roundId,
    status: reconciliation.status,
    differences: JSON.stringify(reconciliation.differences),
  });

  const byCurrency = new Map<string, { betCount: number; stakeSum: bigint; payoutSum: bigint }>();
  for (const player of players) {
    const totals = byCurrency.get(player.currency) ?? { betCount: 0, stakeSum: 0n, payoutSum: 0n };
    totals.betCount += player.bets;
    totals.stakeSum += player.staked;
    totals.payoutSum += player.won;
    byCurrency.set(player.currency, totals);
  }
  const report: RoundReport = {
    eventId: roundReportEventId(tenantId, roundId),
    schemaVersion: 1,
    operatorId: tenantId,
    roundId,
    game: close.game,
    closedAt: close.closedAt.toISOString(),
    betCount: players.reduce((sum, player) => sum + player.bets, 0),
    byCurrency: [...byCurrency]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, totals]) => ({
        currency,
        betCount: totals.betCount,
        stakeSum: Number(totals.stakeSum),
        payoutSum: Number(totals.payoutSum),
        ggr: Number(totals.stakeSum - totals.payoutSum),
      })),
    reconciliation: reconciliation.status,
  };
  await tx.insert(roundReports).values({
    tenantId,
    roundId,
    eventId: report.eventId,
    betCount: report.betCount,
    report: stringifyJson(report),
  });
  return { report, mismatch: reconciliation.status === "mismatch" };
}
