import {
  type CloseRoundEvent,
  closeRoundEvent,
  type RoundReport,
  type SideEffectTopic,
} from "@wallet/contracts/side-effects";
import type { PoolConnection } from "mysql2/promise";
import { beginAndRead, multiStatementTransaction } from "../batch/multi-statement.ts";
import type { LedgerContext } from "../context.ts";
import { ER_DUP_ENTRY, mysqlErrno } from "../mysql-errors.ts";
import { awardLoyalty } from "./apply-loyalty.ts";
import { reportRounds } from "./apply-reporting.ts";
import { countResponsibleGaming } from "./apply-rg.ts";
import { scoreTournaments } from "./apply-tournaments.ts";
import { receiptWrites } from "./receipts.ts";
import { activityReads, type ClosedRound, type RoundActivity, roundKeyOf } from "./round-activity.ts";
import type { Statement } from "./upsert.ts";

export interface SideEffectsInput {
  topic: SideEffectTopic;
  events: CloseRoundEvent[];
  /** Reporting only: hands the reports to the reporting queue before the transaction commits. */
  publishReports?: (reports: RoundReport[]) => Promise<void>;
  /** Test hook: runs after the effects are written, before the commit. */
  beforeCommit?: () => Promise<void>;
}

export interface SideEffectsResult {
  /** Events applied now. */
  applied: number;
  /** Events applied before (or twice in this batch): counted no-ops. */
  duplicates: number;
  /** Rows the effect wrote (awards, counters, scores, reports). */
  rows: number;
  /** Reporting only: rounds that reconciled as a mismatch. */
  mismatches: number;
}

/**
 * Applies one topic's effect for a batch of closed rounds in ONE MySQL transaction of two round
 * trips, with their `(topic, eventId)` receipts: exactly once per event however often it is
 * delivered, and the same statements however many rounds. Read (which events are applied, the
 * closes, who played), decide in TypeScript, write set-based with the receipts and the outbox mark,
 * commit. Reports are handed to the reporting queue before the commit, so a crash republishes them
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
  // A twin delivery that committed first makes the receipt INSERT fail on its key: the rerun skips it.
  const result = await multiStatementTransaction(
    ctx,
    (connection) => applyOnce(connection, ctx, input, events),
    (error) => mysqlErrno(error) === ER_DUP_ENTRY,
  );
  return { ...result, duplicates: input.events.length - result.applied };
}

async function applyOnce(
  connection: PoolConnection,
  ctx: LedgerContext,
  input: SideEffectsInput,
  events: CloseRoundEvent[],
): Promise<Omit<SideEffectsResult, "duplicates">> {
  const { topic } = input;
  // Round trip 1: BEGIN and every read.
  const reads = activityReads(topic, events, {
    bets: topic === "reporting",
    tournaments: topic === "tournaments",
  });
  const activity = await beginAndRead<RoundActivity>(connection, reads, {
    applied: new Set(),
    closes: new Map(),
    players: new Map(),
    entries: new Map(),
    bets: new Map(),
    tournaments: [],
  });
  const todo = events.filter((event) => !activity.applied.has(event.eventId));
  if (todo.length === 0) {
    await connection.query("COMMIT");
    return { applied: 0, rows: 0, mismatches: 0 };
  }
  const rounds: ClosedRound[] = todo.map((event) => {
    const key = roundKeyOf(event.tenantId, event.roundId);
    const close = activity.closes.get(key);
    if (!close) throw new Error(`no CLOSE_ROUND stored for ${event.eventId}`);
    // Players in id order: the order every write of the batch locks their rows in.
    const players = (activity.players.get(key) ?? []).sort((a, b) => a.playerId - b.playerId);
    return { event, close, players };
  });

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
      const reported = reportRounds(rounds, activity.bets);
      effect = { rows: reported.reports.length, ...reported };
      break;
    }
  }

  // Round trip 2: the receipts, the effect, the outbox mark, COMMIT (the hooks run before COMMIT).
  const writes = [
    ...receiptWrites(
      topic,
      todo.map((event) => event.eventId),
    ),
    ...effect.writes,
  ];
  await connection.query(
    writes.map((write) => write.sql).join(";\n"),
    writes.flatMap((write) => write.values),
  );
  if (effect.reports) await input.publishReports?.(effect.reports);
  await input.beforeCommit?.();
  await connection.query("COMMIT");
  return { applied: todo.length, rows: effect.rows, mismatches: effect.mismatches ?? 0 };
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
    beforeCommit?: () => Promise<void>;
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
      beforeCommit: input.beforeCommit,
    },
  });
  if (result.applied === 0) return { outcome: "duplicate" };
  return input.topic === "reporting"
    ? { outcome: "applied", rows: result.rows, mismatch: result.mismatches > 0 }
    : { outcome: "applied", rows: result.rows };
}
