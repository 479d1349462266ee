import { closeRoundEventId, lateEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { AnyMySqlColumn } from "drizzle-orm/mysql-core";
import { closeArraysText } from "../close-pieces/close-arrays.ts";
import type { LedgerContext } from "../context.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { everyTopic, outbox } from "../schema/outbox.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { roundReconciliations, roundReports } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectFailures } from "../schema/side-effect-failures.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";
import { roundKey, roundPlayers } from "./round-players.ts";

/** dead: failed SIDE_EFFECT_MAX_ATTEMPTS times on its own; waits for `pnpm side-effects retry --dead`. */
export type SideEffectState = "pending" | "published" | "applied" | "dead";

/** A round as the operator sees it: open or closed, each side effect's state, the reconciliation. */
export async function roundStatus({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; roundId: string };
}) {
  const { db } = ctx;
  const where = (table: { tenantId: AnyMySqlColumn; roundId: AnyMySqlColumn }) =>
    and(eq(table.tenantId, input.tenantId), eq(table.roundId, input.roundId));
  const [round] = await db.select().from(rounds).where(where(rounds));
  const [close] = await db.select().from(roundCloses).where(where(roundCloses));
  if (!round && !close) return undefined;

  // The round's unusual lines (anomalies.ts): applied as decided, marked, shown here. A line
  // booked after the close owes the effects again under its own event: the round's effects are
  // applied once the close's and every late line's are.
  const unusual = await db
    .select({
      kind: journalEntries.kind,
      providerTxId: journalEntries.providerTxId,
      operatorTxId: journalEntries.operatorTxId,
      amount: journalEntries.amount,
      anomaly: journalEntries.anomaly,
    })
    .from(journalEntries)
    .where(and(where(journalEntries), isNotNull(journalEntries.anomaly)));
  const lateEventIds = unusual
    .filter((line) => line.anomaly?.split(",").includes("after_close"))
    .map((line) => lateEventId(input.tenantId, input.roundId, line.operatorTxId));
  const effects = Object.fromEntries(sideEffectTopics.map((topic) => [topic, "pending" as SideEffectState]));
  // Effects that failed on their own (retrying, or dead), with their last error: what an SRE needs.
  let failures: Array<Record<string, unknown>> = [];
  if (close) {
    // By the unique (topic, event_id) keys: the event ids name the operator. An effect is applied
    // once its receipt exists, published once its outbox row (one for all topics, or one per topic
    // in rows written before) is.
    const eventIds = [closeRoundEventId(input.tenantId, input.roundId), ...lateEventIds];
    const [rows, receipts, failed] = await Promise.all([
      db
        .select({ topic: outbox.topic, eventId: outbox.eventId, publishedAt: outbox.publishedAt })
        .from(outbox)
        .where(
          and(inArray(outbox.topic, [everyTopic, ...sideEffectTopics]), inArray(outbox.eventId, eventIds)),
        ),
      db
        .select({ topic: sideEffectReceipts.topic, eventId: sideEffectReceipts.eventId })
        .from(sideEffectReceipts)
        .where(
          and(
            inArray(sideEffectReceipts.topic, [...sideEffectTopics]),
            inArray(sideEffectReceipts.eventId, eventIds),
          ),
        ),
      db
        .select({
          eventId: sideEffectFailures.eventId,
          topic: sideEffectFailures.topic,
          attempts: sideEffectFailures.attempts,
          lastError: sideEffectFailures.lastError,
          lastFailedAt: sideEffectFailures.lastFailedAt,
          deadAt: sideEffectFailures.deadAt,
        })
        .from(sideEffectFailures)
        .where(inArray(sideEffectFailures.eventId, eventIds)),
    ]);
    failures = failed.map((failure) => ({
      event_id: failure.eventId,
      topic: failure.topic,
      attempts: failure.attempts,
      last_error: failure.lastError,
      last_failed_at: failure.lastFailedAt.toISOString(),
      dead_at: failure.deadAt?.toISOString() ?? null,
    }));
    // Each topic shows its least advanced event: dead, else pending, else published, else applied.
    const state = new Map<string, SideEffectState>();
    const key = (topic: string, eventId: string) => `${topic}\n${eventId}`;
    for (const row of rows)
      if (row.publishedAt)
        for (const topic of row.topic === everyTopic ? sideEffectTopics : [row.topic])
          state.set(key(topic, row.eventId), "published");
    for (const receipt of receipts) state.set(key(receipt.topic, receipt.eventId), "applied");
    for (const failure of failed) if (failure.deadAt) state.set(key(failure.topic, failure.eventId), "dead");
    for (const topic of sideEffectTopics) {
      const states = eventIds.map((eventId) => state.get(key(topic, eventId)) ?? "pending");
      effects[topic] = leastAdvanced(states);
    }
  }
  // Its players, open or closed: a repair after a loss is made per player (`user_id`).
  const userIds = (await roundPlayers(db, [input])).get(roundKey(input)) ?? [];
  const [reconciliation] = await db.select().from(roundReconciliations).where(where(roundReconciliations));
  const [report] = await db
    .select({ report: roundReports.report })
    .from(roundReports)
    .where(where(roundReports));
  // A large close's arrays are in pieces (`close_pieces`): read back whole, as a small one's are.
  const arrays = close ? { ...close, ...(await closeArraysText(db, close)) } : undefined;
  const anomalies = unusual.map((line) => ({
    kind: line.kind,
    provider_tx_id: line.providerTxId,
    amount: line.amount,
    anomalies: line.anomaly?.split(",") ?? [],
  }));
  return {
    round_id: input.roundId,
    operator_id: input.tenantId,
    user_ids: userIds,
    game: round?.game ?? close?.game,
    status: close ? "closed" : "open",
    closed_at: close?.createdAt.toISOString() ?? null,
    close: arrays
      ? {
          provider_tx_id: arrays.providerTxId,
          bet_count: arrays.betCount,
          stakes: storedJson(arrays.stakes),
          cash_out_coefficients: storedJson(arrays.cashOutCoefficients),
        }
      : null,
    side_effects: close ? effects : null,
    side_effect_failures: failures,
    // The reconciliation as of its revision (1, plus the late lines it includes), with the round's
    // unusual lines, so what was reconciled and what was odd about the round are read together.
    reconciliation: reconciliation
      ? {
          status: reconciliation.status,
          revision: reconciliation.revision,
          differences: storedJson(reconciliation.differences),
          // Every difference counted and summed; `differences` lists the first ones only.
          summary: reconciliation.summary === null ? null : storedJson(reconciliation.summary),
          anomalies,
        }
      : null,
    report: report ? storedJson(report.report) : null,
    anomalies,
  };
}

const progress: SideEffectState[] = ["dead", "pending", "published", "applied"];

/** Of one topic's events (the close's, each late line's), the state of the least advanced. */
function leastAdvanced(states: SideEffectState[]): SideEffectState {
  return progress.find((state) => states.includes(state)) ?? "applied";
}

/**
 * A stored JSON column, or what it holds if it cannot be read: this read is what an SRE opens for a
 * round whose effects are dead, often because of such a value, so it must answer, and show it.
 */
function storedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { unreadable: text.slice(0, 1_000) };
  }
}
