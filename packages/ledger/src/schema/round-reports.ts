import { index, int, mediumtext, mysqlTable, primaryKey, text, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId } from "./columns.ts";

/** The round report published to the reporting team, as published (JSON). */
export const roundReports = mysqlTable(
  "round_reports",
  {
    tenantId: rowId("tenant_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    eventId: idString("event_id", 200).notNull(),
    betCount: int("bet_count").notNull(),
    report: mediumtext("report").notNull(),
    /** 1 at the close, one more for each money line booked after it; a higher revision replaces the row. */
    revision: int("revision").notNull().default(1),
    createdAt: createdAt(),
  },
  // `pnpm side-effects republish --since` reads the reports by when they were made.
  (t) => [primaryKey({ columns: [t.tenantId, t.roundId] }), index("round_reports_created").on(t.createdAt)],
);

export const reconciliationStatuses = ["matched", "mismatch"] as const;

/** The platform's CLOSE_ROUND arrays compared with our own bets and wins of the round. */
export const roundReconciliations = mysqlTable(
  "round_reconciliations",
  {
    tenantId: rowId("tenant_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    status: varchar("status", { length: 16, enum: reconciliationStatuses }).notNull(),
    /** The first differences (at most `DIFFERENCES_LISTED`, `reconcile.ts`), JSON. */
    differences: mediumtext("differences").notNull(),
    /**
     * Every difference counted and summed per kind, JSON (`{count, stake, payout}`, millis as decimal
     * text); null on rows stored before it existed, whose lists were whole.
     */
    summary: text("summary"),
    /** The revision of the round's figures it was made from (as its report's). */
    revision: int("revision").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.roundId] })],
);
