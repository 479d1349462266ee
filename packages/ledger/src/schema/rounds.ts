import { mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/** A round as we saw it: opened by its first bet, closed by the platform's CLOSE_ROUND. */
export const rounds = mysqlTable(
  "rounds",
  {
    tenantId: rowId("tenant_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    game: idString("game", 128).notNull(),
    closedAt: timestamp3("closed_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.roundId] })],
);
