import { char, index, mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/**
 * A platform session bound to a player by `/auth`; bets must come through a live one. Both tokens
 * are stored as their SHA-256 (`tokenHash`) and looked up by it: a dump of this table opens nothing.
 */
export const gameSessions = mysqlTable(
  "game_sessions",
  {
    tenantId: rowId("tenant_id").notNull(),
    sessionToken: idString("session_token", 64).notNull(),
    playerId: rowId("player_id").notNull(),
    userToken: idString("user_token", 64).notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    expiresAt: timestamp3("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.sessionToken] }),
    index("game_sessions_player").on(t.playerId),
  ],
);
