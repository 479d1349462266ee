import { stringifyJson } from "@wallet/contracts/json";
import { type RoundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import { reconcileRound } from "./reconcile.ts";
import type { ClosedRound } from "./round-activity.ts";
import { insertRows, type Statement } from "./upsert.ts";

/**
 * Each round's report (bets, stakes, payouts, GGR per currency) and the reconciliation of the
 * platform's arrays against our bets, stored together (one statement per table for the batch);
 * the reports are returned for publishing, with how many rounds reconciled as a mismatch.
 */
export function reportRounds(rounds: ClosedRound[]): {
  writes: Statement[];
  reports: RoundReport[];
  mismatches: number;
} {
  const reports: RoundReport[] = [];
  const reconciliations: unknown[][] = [];
  let mismatches = 0;
  for (const { event, close, players, bets } of rounds) {
    const { tenantId, roundId } = event;
    const reconciliation = reconcileRound(close.stakes, close.cashOutCoefficients, bets);
    if (reconciliation.status === "mismatch") mismatches += 1;
    reconciliations.push([
      tenantId,
      roundId,
      reconciliation.status,
      JSON.stringify(reconciliation.differences),
    ]);
    reports.push(buildReport(tenantId, roundId, close.game, close.closedAt, players, reconciliation.status));
  }
  const writes = [
    ...insertRows(
      "round_reconciliations",
      ["tenant_id", "round_id", "status", "differences"],
      reconciliations,
    ),
    ...insertRows(
      "round_reports",
      ["tenant_id", "round_id", "event_id", "bet_count", "report"],
      reports.map((report) => [
        report.operatorId,
        report.roundId,
        report.eventId,
        report.betCount,
        stringifyJson(report),
      ]),
    ),
  ];
  return { writes, reports, mismatches };
}

function buildReport(
  tenantId: number,
  roundId: string,
  game: string,
  closedAt: Date,
  players: ClosedRound["players"],
  reconciliation: RoundReport["reconciliation"],
): RoundReport {
  const byCurrency = new Map<string, { betCount: number; stakeSum: bigint; payoutSum: bigint }>();
  for (const player of players) {
    const totals = byCurrency.get(player.currency) ?? { betCount: 0, stakeSum: 0n, payoutSum: 0n };
    totals.betCount += player.bets;
    totals.stakeSum += player.staked;
    totals.payoutSum += player.won;
    byCurrency.set(player.currency, totals);
  }
  return {
    eventId: roundReportEventId(tenantId, roundId),
    schemaVersion: 1,
    operatorId: tenantId,
    roundId,
    game,
    closedAt: closedAt.toISOString(),
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
    reconciliation,
  };
}
