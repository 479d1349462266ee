import {
  type CloseRoundEvent,
  closeRoundEvent,
  type RoundReport,
  type SideEffectTopic,
} from "@wallet/contracts/side-effects";
import type { PoolConnection } from "mysql2/promise";
import type { LedgerContext } from "../context.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import { beginAndRead, multiStatementTransaction, writeAndCommit } from "../sql/multi-statement.ts";
import { awardLoyalty } from "./apply-loyalty.ts";
import { reconcileRounds, reportRounds } from "./apply-reporting.ts";
import { countResponsibleGaming } from "./apply-rg.ts";
import { scoreTournaments } from "./apply-tournaments.ts";
import { effectTransactions } from "./effect-transactions.ts";
import { receiptWrites } from "./receipts.ts";
import type { Reconciliation } from "./reconcile.ts";
import { readReconciliationInputs } from "./reconciliation-inputs.ts";
import { activityReads, type ClosedRound, type RoundActivity } from "./round-activity.ts";
import { closedRoundOf, readRoundSummaries } from "./round-summary.ts";
import type { Statement } from "./upsert.ts";

export interface SideEffectsInput {
  topic: SideEffectTopic;
  events: CloseRoundEvent[];
  /** Reporting only: hands the reports to the reporting queue before the transaction commits. */
  publishReports?: (reports: RoundReport[]) => Promise<void>;
  /**
   * TEST HOOK, never set in production: runs after the effects are written, before the commit. Only
   * the worker's crash points (`apps/worker/src/test-crash-points.ts`, two keys to switch on) use it.
   */
  testHookBeforeCommit?: () => Promise<void>;
  /** TEST HOOK: the units one transaction takes (`effectUnitsPerTransaction` unless given), so a test splits a few players. */
  unitsPerTransaction?: number;
}

export interface SideEffectsResult {
  /** Events applied now. */
  applied: number;
  /** Events applied before (or twice in this batch): counted no-ops. */
  duplicates: number;
  /** Rows the effect wrote (awards, counters, scores, reports). */
  rows: number;
  /**
   * Reporting only: rounds whose stored reconciliation this batch turned into a mismatch (absent or
   * matched before). A round revised while it already disagrees is not counted again, nor is a
   * revision older than the stored one (it replaces nothing).
   */
  mismatches: number;
}

/**
 * Applies one topic's effect for a batch of closed rounds in MySQL transactions of two round trips
 * (one, unless the batch passes 1,000 receipts and players: `effect-transactions.ts`), with their
 * `(topic, eventId)` receipts: exactly once per event however often it is
 * delivered, and the same statements however many rounds. What each round did comes with its event
 * (read once by the relay for the four topics). Read which events are applied, decide in
 * TypeScript, write set-based with the receipts, commit. Reports are handed to the reporting queue before the commit, so a crash republishes them
 * (consumers deduplicate on their event id) rather than losing them. A deadlock, or a twin delivery
 * committing first (duplicate receipt), reruns the whole transaction.
 */
export async function applySideEffects({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: SideEffectsInput;
}): Promise<SideEffectsResult> {
  const events = [...new Map(input.events.map((event) => [event.eventId, event])).values()];
  const rounds = await closedRounds(ctx, events);
  // Only reporting pairs the close's arrays with our bets: it reads them itself (they never travel in the job).
  const inputs =
    input.topic === "reporting"
      ? await reconcileRounds(
          await readReconciliationInputs(
            ctx,
            events.map(({ tenantId, roundId }) => ({ tenantId, roundId })),
          ),
        )
      : new Map();
  const result = { applied: 0, rows: 0, mismatches: 0 };
  // In transactions of at most 1,000 receipts and players, one after the other: a job's rounds and
  // their players are bounded by nothing else. Each is exactly once by its receipts; one that fails
  // leaves those before it applied, and the job's retry skips them.
  for (const transaction of effectTransactions(input.topic, rounds, input.unitsPerTransaction)) {
    // A twin delivery that committed first makes the receipt INSERT fail on its key: the rerun skips it.
    const applied = await multiStatementTransaction(
      ctx,
      (connection) => applyOnce(connection, ctx, input, transaction, inputs),
      (error) => mysqlErrno(error) === ER_DUP_ENTRY,
    );
    result.applied += applied.applied;
    result.rows += applied.rows;
    result.mismatches += applied.mismatches;
  }
  return { ...result, duplicates: input.events.length - result.applied };
}

/**
 * The batch's rounds from the summaries their events carry (the relay reads them once for the four
 * topics); a job published without them (an earlier version's) reads them here. A round whose close
 * is not stored cannot be applied: the job fails and is retried. When the re-read can go: 7 days
 * after the last relay from before summaries travelled (3e0b3df, 2026-11-24) stopped, for the same
 * reason as the job union's (`sideEffectJob`): a failed job is kept, and retryable, for a week.
 */
async function closedRounds(ctx: LedgerContext, events: CloseRoundEvent[]): Promise<ClosedRound[]> {
  const missing = events.filter((event) => !event.round);
  const read = missing.length > 0 ? await readRoundSummaries(ctx, missing) : new Map();
  return events.map((event) => {
    const round = read.get(event.eventId) ?? event.round;
    if (!round) throw new Error(`no CLOSE_ROUND stored for ${event.eventId}`);
    return closedRoundOf(event, round);
  });
}

async function applyOnce(
  connection: PoolConnection,
  ctx: LedgerContext,
  input: SideEffectsInput,
  batch: ClosedRound[],
  inputs: ReadonlyMap<string, Reconciliation>,
): Promise<Omit<SideEffectsResult, "duplicates">> {
  const { topic } = input;
  // Round trip 1: BEGIN and the reads (receipts; running tournaments).
  const activity = await beginAndRead<RoundActivity>(connection, activityReads(topic, batch), {
    applied: new Set(),
    tournaments: [],
    reconciled: new Map(),
  });
  const rounds = batch.filter((round) => !activity.applied.has(round.event.eventId));
  if (rounds.length === 0) {
    await writeAndCommit(connection, []);
    return { applied: 0, rows: 0, mismatches: 0 };
  }

  // Decide: the effect's rows, in TypeScript.
  let effect: { writes: Statement[]; rows: number; mismatches?: number; reports?: RoundReport[] };
  switch (topic) {
    case "loyalty":
      effect = awardLoyalty(rounds, ctx.config.loyaltyPointsPer1000);
      break;
    case "tournaments":
      effect = scoreTournaments(rounds, activity.tournaments);
      break;
    case "rg":
      effect = countResponsibleGaming(rounds);
      break;
    case "reporting": {
      const reported = reportRounds(rounds, inputs, activity.reconciled);
      effect = { rows: reported.reports.length, ...reported };
      break;
    }
  }

  // Round trip 2: the receipts, the effect, the outbox mark, COMMIT (the hooks run before COMMIT).
  const writes = [
    ...receiptWrites(
      topic,
      rounds.map((round) => round.event.eventId),
    ),
    ...effect.writes,
  ];
  await connection.query(
    writes.map((write) => write.sql).join(";\n"),
    writes.flatMap((write) => write.values),
  );
  if (effect.reports) await input.publishReports?.(effect.reports);
  await input.testHookBeforeCommit?.();
  // Guarded: a transaction the server rolled back mid-packet above fails here, whole (multi-statement.ts).
  await writeAndCommit(connection, []);
  // A round's part applied is not yet its event applied: its last part is.
  const applied = rounds.filter((round) => round.partOf === undefined).length;
  return { applied, rows: effect.rows, mismatches: effect.mismatches ?? 0 };
}

export type SideEffectResult =
  | { outcome: "applied"; rows: number; mismatch?: boolean }
  | { outcome: "duplicate" };

/** One event: `applySideEffects` for a batch of one (tests, and callers with a single event). */
export async function applySideEffect({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: {
    topic: SideEffectTopic;
    event: unknown;
    publishReport?: (report: RoundReport) => Promise<void>;
    testHookBeforeCommit?: () => Promise<void>;
  };
}): Promise<SideEffectResult> {
  const { publishReport } = input;
  const result = await applySideEffects({
    ctx,
    input: {
      topic: input.topic,
      events: [closeRoundEvent.parse(input.event)],
      publishReports:
        publishReport && (async (reports) => void (await Promise.all(reports.map(publishReport)))),
      testHookBeforeCommit: input.testHookBeforeCommit,
    },
  });
  if (result.applied === 0) return { outcome: "duplicate" };
  return input.topic === "reporting"
    ? { outcome: "applied", rows: result.rows, mismatch: result.mismatches > 0 }
    : { outcome: "applied", rows: result.rows };
}
