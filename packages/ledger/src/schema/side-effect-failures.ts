import { index, int, mysqlTable, primaryKey, varchar } from "drizzle-orm/mysql-core";
import { idString, rowId, timestamp3 } from "./columns.ts";

/**
 * A side effect that failed on its own (not with its batch: the consumer retries each event of a
 * failed batch alone to find which one fails). Each failure counts an attempt; at
 * `SIDE_EFFECT_MAX_ATTEMPTS` the effect is dead: the sweep stops republishing its outbox row, it is
 * shown (`GET /v1/rounds/{id}`, `wallet_side_effects_dead`, an alert) and waits for
 * `pnpm side-effects retry --dead` after a fix. Kept after a later success, as history.
 */
export const sideEffectFailures = mysqlTable(
  "side_effect_failures",
  {
    eventId: idString("event_id", 200).notNull(),
    topic: varchar("topic", { length: 32 }).notNull(),
    tenantId: rowId("tenant_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    attempts: int("attempts").notNull(),
    lastError: varchar("last_error", { length: 1000 }).notNull(),
    firstFailedAt: timestamp3("first_failed_at").notNull(),
    lastFailedAt: timestamp3("last_failed_at").notNull(),
    deadAt: timestamp3("dead_at"),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.topic] }), index("side_effect_failures_dead").on(t.deadAt)],
);
