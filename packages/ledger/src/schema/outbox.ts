import { sideEffectTopics } from "@wallet/contracts/side-effects";
import { index, mediumtext, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/**
 * Side effects owed by a committed CLOSE_ROUND, written in the same transaction. The relay
 * publishes them; consumers deduplicate on `(topic, event_id)`, so each effect lands once.
 */
export const outbox = mysqlTable(
  "outbox",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    topic: varchar("topic", { length: 32, enum: sideEffectTopics }).notNull(),
    eventId: idString("event_id", 200).notNull(),
    payload: mediumtext("payload").notNull(),
    publishedAt: timestamp3("published_at"),
    /** Set by the consumer in the effect's transaction; the sweep republishes rows that never get it. */
    appliedAt: timestamp3("applied_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("outbox_topic_event").on(t.topic, t.eventId),
    index("outbox_unpublished").on(t.publishedAt, t.id),
    // The backlog gauge and the sweep read the unapplied rows (applied_at IS NULL), the pruner the
    // oldest applied ones: one index serves all three, so none of them scans the table.
    index("outbox_applied").on(t.appliedAt, t.publishedAt, t.createdAt),
  ],
);
