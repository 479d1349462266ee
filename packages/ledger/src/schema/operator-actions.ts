import { index, mediumtext, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { createdAt, rowId } from "./columns.ts";

/**
 * The operator API's audit trail of every write (players, adjustments, free bets, user tokens,
 * launches, catalog invalidations, manual closes): who, what, on what, with what answer, never a
 * credential. Never updated; deleted only by the worker's retention once older than
 * OPERATOR_ACTIONS_RETENTION_DAYS (`retention/prune-expired.ts`).
 */
export const operatorActions = mysqlTable(
  "operator_actions",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    action: varchar("action", { length: 32 }).notNull(),
    subject: varchar("subject", { length: 255 }).notNull(),
    /** Which credential made the call (never the credential itself). */
    actor: varchar("actor", { length: 128 }).notNull(),
    detail: mediumtext("detail").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("operator_actions_tenant").on(t.tenantId, t.id),
    // Retention deletes the oldest rows in chunks: without it each chunk would scan the whole trail.
    index("operator_actions_created").on(t.createdAt),
  ],
);
