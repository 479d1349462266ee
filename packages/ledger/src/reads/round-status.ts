import { closeRoundEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { and, eq, inArray } from "drizzle-orm";
import type { AnyMySqlColumn } from "drizzle-orm/mysql-core";
import type { LedgerContext } from "../context.ts";
import { everyTopic, outbox } from "../schema/outbox.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { roundReconciliations, roundReports } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";

export type SideEffectState = "pending" | "published" | "applied";

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
  if (close) {
    // By the unique (topic, event_id) keys, one lookup per topic: the event id names the operator.
    // An effect is applied once its receipt exists, published once its outbox row (one for all
    // topics, or one per topic in rows written before) is.
    const eventId = closeRoundEventId(input.tenantId, input.roundId);
    const [rows, receipts] = await Promise.all([
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
    ]);
    for (const row of rows)
      if (row.publishedAt)
        for (const topic of row.topic === everyTopic ? sideEffectTopics : [row.topic])
          effects[topic] = "published";
    for (const receipt of receipts) effects[receipt.topic] = "applied";
  }
  const [reconciliation] = await db.select().from(roundReconciliations).where(where(roundReconciliations));
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
          stakes: JSON.parse(close.stakes) as unknown,
          cash_out_coefficients: JSON.parse(close.cashOutCoefficients) as unknown,
        }
      : null,
    side_effects: close ? effects : null,
    reconciliation: reconciliation
      ? { status: reconciliation.status, differences: JSON.parse(reconciliation.differences) as unknown }
      : null,
    report: report ? (JSON.parse(report.report) as unknown) : null,
  };
}
