import { sql } from "drizzle-orm";
import { check, index, int, mysqlTable } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/** Free bets granted to a player, optionally for one game and until a date; FREE_BET consumes one. */
export const freeBetGrants = mysqlTable(
  "free_bet_grants",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    playerId: rowId("player_id").notNull(),
    game: idString("game", 128),
    granted: int("granted").notNull(),
    remaining: int("remaining").notNull(),
    expiresAt: timestamp3("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("free_bet_grants_player").on(t.playerId),
    check("free_bet_grants_remaining", sql`${t.remaining} >= 0 AND ${t.remaining} <= ${t.granted}`),
  ],
);
