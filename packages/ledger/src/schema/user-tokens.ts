import { index, mysqlTable } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/**
 * A token the operator hands the platform at launch; `/auth` exchanges it for the player. `token`
 * holds the token's SHA-256 (`tokenHash`), never the token: it is handed out once, at minting.
 */
export const userTokens = mysqlTable(
  "user_tokens",
  {
    token: idString("token", 64).primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    playerId: rowId("player_id").notNull(),
    expiresAt: timestamp3("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("user_tokens_player").on(t.playerId)],
);
