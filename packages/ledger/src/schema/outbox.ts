import { sideEffectTopics } from "@wallet/contracts/side-effects";
import { index, mediumtext, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/** The topic of an outbox row that owes every side effect of its close (one row per CLOSE_ROUND). */
export const everyTopic = "all";

/**
 * Side effects owed by a committed CLOSE_ROUND, written in the same transaction: ONE row per close
 * (topic `all`), which the relay publishes to the four topics' queues; consumers deduplicate on
 * their `(topic, event_id)` receipt, so each effect lands once. Rows of one topic each (`loyalty`, …)
 * were written before and are still relayed and completed the same way.
 */
export const outbox = mysqlTable(
  "outbox",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    topic: varchar("topic", { length: 32, enum: [everyTopic, ...sideEffectTopics] }).notNull(),
    eventId: idString("event_id", 200).notNull(),
    payload: mediumtext("payload").notNull(),
    publishedAt: timestamp3("published_at"),
    /**
     * Set once every effect the row owes has its receipt (`markApplied`, run by the relay each turn:
     * consumers never write the row, so four of them do not update it four times); the sweep
     * republishes rows that never get it.
     */
    appliedAt: timestamp3("applied_at"),
    /** Set when one of its effects failed for good (`side_effect_failures`): the sweep leaves it alone. */
    deadAt: timestamp3("dead_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("outbox_topic_event").on(t.topic, t.eventId),
    index("outbox_unpublished").on(t.publishedAt, t.id),
    // markApplied, the sweep and the backlog gauge read the live unapplied rows (applied_at IS NULL
    // AND dead_at IS NULL), the pruner the oldest applied ones: one index serves all four, so none
    // scans the table, and dead rows, however many, are never read (issue 39, migration 0004).
    index("outbox_applied_dead").on(t.appliedAt, t.deadAt, t.publishedAt, t.createdAt),
  ],
);
