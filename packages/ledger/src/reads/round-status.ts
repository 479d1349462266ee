import { closeRoundEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { AnyMySqlColumn } from "drizzle-orm/mysql-core";
import type { LedgerContext } from "../context.ts";
import { journalEntries } from "../schema/journal-entries.ts";
import { everyTopic, outbox } from "../schema/outbox.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { roundReconciliations, roundReports } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectFailures } from "../schema/side-effect-failures.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";

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

  const effects = Object.fromEntries(sideEffectTopics.map((topic) => [topic, "pending" as SideEffectState]));
  // Effects that failed on their own (retrying, or dead), with their last error: what an SRE needs.
  let failures: Array<Record<string, unknown>> = [];
  if (close) {
    // By the unique (topic, event_id) keys, one lookup per topic: the event id names the operator.
    // An effect is applied once its receipt exists, published once its outbox row (one for all
    // topics, or one per topic in rows written before) is.
    const eventId = closeRoundEventId(input.tenantId, input.roundId);
    const [rows, receipts, failed] = await Promise.all([
      db
        .select({ topic: outbox.topic, publishedAt: outbox.publishedAt })
        .from(outbox)
        .where(and(inArray(outbox.topic, [everyTopic, ...sideEffectTopics]), eq(outbox.eventId, eventId))),
      db
        .select({ topic: sideEffectReceipts.topic })
        .from(sideEffectReceipts)
        .where(
          and(
            inArray(sideEffectReceipts.topic, [...sideEffectTopics]),
            eq(sideEffectReceipts.eventId, eventId),
          ),
        ),
      db
        .select({
          topic: sideEffectFailures.topic,
          attempts: sideEffectFailures.attempts,
          lastError: sideEffectFailures.lastError,
          lastFailedAt: sideEffectFailures.lastFailedAt,
          deadAt: sideEffectFailures.deadAt,
        })
        .from(sideEffectFailures)
        .where(eq(sideEffectFailures.eventId, eventId)),
    ]);
    failures = failed.map((failure) => ({
      topic: failure.topic,
      attempts: failure.attempts,
      last_error: failure.lastError,
      last_failed_at: failure.lastFailedAt.toISOString(),
      dead_at: failure.deadAt?.toISOString() ?? null,
    }));
    for (const row of rows)
      if (row.publishedAt)
        for (const topic of row.topic === everyTopic ? sideEffectTopics : [row.topic])
          effects[topic] = "published";
    for (const failure of failed) if (failure.deadAt) effects[failure.topic] = "dead";
    for (const receipt of receipts) effects[receipt.topic] = "applied";
  }
  const [reconciliation] = await db.select().from(roundReconciliations).where(where(roundReconciliations));
  // The round's unusual lines (anomalies.ts): applied as decided, marked, shown here.
  const unusual = await db
    .select({
      kind: journalEntries.kind,
      providerTxId: journalEntries.providerTxId,
      amount: journalEntries.amount,
      anomaly: journalEntries.anomaly,
    })
    .from(journalEntries)
    .where(and(where(journalEntries), isNotNull(journalEntries.anomaly)));
  const [report] = await db
    .select({ report: roundReports.report })
    .from(roundReports)
    .where(where(roundReports));
  return {
    round_id: input.roundId,
    operator_id: input.tenantId,
    game: round?.game ?? close?.game,
    status: close ? "closed" : "open",
    closed_at: close?.createdAt.toISOString() ?? null,
    close: close
      ? {
          provider_tx_id: close.providerTxId,
          bet_count: close.betCount,
          stakes: storedJson(close.stakes),
          cash_out_coefficients: storedJson(close.cashOutCoefficients),
        }
      : null,
    side_effects: close ? effects : null,
    side_effect_failures: failures,
    reconciliation: reconciliation
      ? { status: reconciliation.status, differences: storedJson(reconciliation.differences) }
      : null,
    report: report ? storedJson(report.report) : null,
    anomalies: unusual.map((line) => ({
      kind: line.kind,
      provider_tx_id: line.providerTxId,
      amount: line.amount,
      anomalies: line.anomaly?.split(",") ?? [],
    })),
  };
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
