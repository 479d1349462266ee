import { index, mediumtext, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

export const sideEffectTopics = ["loyalty", "tournaments", "reporting", "rg"] as const;
export type SideEffectTopic = (typeof sideEffectTopics)[number];

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("outbox_topic_event").on(t.topic, t.eventId),
    index("outbox_unpublished").on(t.publishedAt, t.id),
  ],
);
