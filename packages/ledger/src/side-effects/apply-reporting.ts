import { stringifyJson } from "@wallet/contracts/json";
import { type RoundReport, roundReportEventId } from "@wallet/contracts/side-effects";
import { once } from "../sql/sql-text.ts";
import { type Reconciliation, reconcileInTurns, summaryText } from "./reconcile.ts";
import type { ReconciliationInputs } from "./reconciliation-inputs.ts";
import { type ClosedRound, roundKeyOf, type StoredReconciliation } from "./round-activity.ts";
import { insertRows, type Statement } from "./upsert.ts";

/**
 * Each round's report (bets, stakes, payouts, GGR per currency) and the reconciliation of the
 * platform's arrays against our bets, stored together (one statement per table for the batch);
 * the reports are returned for publishing. A late event (a money line booked after the close)
 * reconciles and reports the whole round again, as a new revision under its own event id; the
 * stored report and reconciliation keep the highest revision, whichever order the events are
 * applied in. `mismatches` counts rounds, not revisions: a round whose stored reconciliation
 * (`reconciled`, read and locked in the same transaction) this batch turns from absent or matched
 * into a mismatch; a revision of a round that already disagreed, or one older than the stored one
 * (it replaces nothing), is not counted.
 */
export function reportRounds(
  rounds: ClosedRound[],
  reconciliations: ReadonlyMap<string, Reconciliation>,
  reconciled: ReadonlyMap<string, StoredReconciliation> = new Map(),
): {
  writes: Statement[];
  reports: RoundReport[];
  mismatches: number;
} {
  const reports: RoundReport[] = [];
  const reconciliationRows: unknown[][] = [];
  let mismatches = 0;
  // What each round's stored row holds as the batch's rows are written in order (a batch may carry
  // two revisions of one round): the upsert below keeps a revision at least as high as the stored one.
  const stored = new Map(reconciled);
  for (const { event, close, roundPlayers, revision } of rounds) {
    const { tenantId, roundId } = event;
    const key = roundKeyOf(tenantId, roundId);
    const reconciliation = reconciliations.get(key);
    if (!reconciliation)
      throw new Error(`the stored CLOSE_ROUND of ${event.eventId} cannot be read for reconciliation`);
    const before = stored.get(key);
    if (!before || revision >= before.revision) {
      if (reconciliation.status === "mismatch" && before?.status !== "mismatch") mismatches += 1;
      stored.set(key, { status: reconciliation.status, revision });
    }
    reconciliationRows.push([
      tenantId,
      roundId,
      reconciliation.status,
      JSON.stringify(reconciliation.differences),
      summaryText(reconciliation.summary),
      revision,
    ]);
    reports.push({
      ...buildReport(tenantId, roundId, close.game, close.closedAt, roundPlayers, reconciliation.status),
      eventId: roundReportEventId(tenantId, roundId, event.late?.operatorTxId),
      revision,
    });
  }
  const writes = [
    ...keepingLatest(
      "round_reconciliations",
      ["tenant_id", "round_id", "status", "differences", "summary", "revision"],
      reconciliationRows,
    ),
    ...keepingLatest(
      "round_reports",
      ["tenant_id", "round_id", "event_id", "bet_count", "report", "revision"],
      reports.map((report) => [
        report.operatorId,
        report.roundId,
        report.eventId,
        report.betCount,
        stringifyJson(report),
        report.revision,
      ]),
    ),
  ];
  return { writes, reports, mismatches };
}

/**
 * One row per round, replaced by a higher revision only (a revised report made `created_at` anew,
 * so `pnpm side-effects republish --since` finds it): a close's report applied after a late
 * line's (a retried job) must not put the older figures back. `revision` is assigned last, so every
 * condition before it compares with the stored row's.
 */
function keepingLatest(table: string, columns: string[], rows: unknown[][]): Statement[] {
  const [insert] = insertRows(table, columns, rows);
  if (!insert) return [];
  const newer = "VALUES(revision) >= revision";
  const updated = [...columns.filter((c) => !["tenant_id", "round_id", "revision"].includes(c)), "created_at"]
    .map((column) =>
      column === "created_at"
        ? `created_at = IF(${newer}, CURRENT_TIMESTAMP(3), created_at)`
        : `${column} = IF(${newer}, VALUES(${column}), ${column})`,
    )
    .join(", ");
  return [
    {
      sql: once(
        `keep-latest-${table}`,
        rows.length,
        () =>
          `${insert.sql} ON DUPLICATE KEY UPDATE ${updated}, revision = GREATEST(revision, VALUES(revision))`,
      ),
      values: insert.values,
    },
  ];
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
    schemaVersion: 2,
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
        stakeSum: totals.stakeSum.toString(),
        payoutSum: totals.payoutSum.toString(),
        ggr: (totals.stakeSum - totals.payoutSum).toString(),
      })),
    reconciliation,
  };
}

/**
 * Each round's reconciliation, computed before its transaction opens (it reads only the close's
 * arrays and our bets, both committed before the close): a slice per event-loop turn, so a close of
 * 620,000 bets never holds the side-effect thread for its second of CPU, nor a transaction open for it.
 */
export async function reconcileRounds(
  inputs: ReadonlyMap<string, ReconciliationInputs>,
): Promise<Map<string, Reconciliation>> {
  const reconciliations = new Map<string, Reconciliation>();
  for (const [key, paired] of inputs)
    reconciliations.set(key, await reconcileInTurns(paired.stakes, paired.coefficients, paired.bets));
  return reconciliations;
}
