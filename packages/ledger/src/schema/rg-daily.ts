import { date, int, mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
import { money, rowId, timestamp3 } from "./columns.ts";

/** Responsible-gaming counters per player per UTC day (the day the round closed). */
export const rgDaily = mysqlTable(
  "rg_daily",
  {
    playerId: rowId("player_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    tenantId: rowId("tenant_id").notNull(),
    staked: money("staked").notNull(),
    won: money("won").notNull(),
    /** staked − won; negative when the player came out ahead. */
    netLoss: money("net_loss").notNull(),
    rounds: int("rounds").notNull(),
    updatedAt: timestamp3("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.playerId, t.day] })],
);
