import { mysqlTable, primaryKey, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString } from "./columns.ts";

/**
 * One row per side effect applied, keyed by `(topic, event_id)` and written in the effect's own
 * transaction: a second delivery of the same event finds it and changes nothing.
 */
export const sideEffectReceipts = mysqlTable(
  "side_effect_receipts",
  {
    topic: varchar("topic", { length: 32 }).notNull(),
    eventId: idString("event_id", 200).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.topic, t.eventId] })],
);
