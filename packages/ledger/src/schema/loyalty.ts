import { index, mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
import { createdAt, idString, money, rowId, timestamp3 } from "./columns.ts";

/** A player's loyalty points. */
export const loyaltyBalances = mysqlTable("loyalty_balances", {
  playerId: rowId("player_id").primaryKey(),
  tenantId: rowId("tenant_id").notNull(),
  points: money("points").notNull(),
  updatedAt: timestamp3("updated_at").notNull(),
});

/** Each round's award to each player, for audit: the balance is their sum. */
export const loyaltyAwards = mysqlTable(
  "loyalty_awards",
  {
    tenantId: rowId("tenant_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    playerId: rowId("player_id").notNull(),
    staked: money("staked").notNull(),
    points: money("points").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.roundId, t.playerId] }),
    index("loyalty_awards_player").on(t.playerId),
  ],
);
