import { sql } from "drizzle-orm";
import { char, check, mysqlTable, uniqueIndex } from "drizzle-orm/mysql-core";
import { money, rowId, timestamp3 } from "./columns.ts";

/**
 * A player's balance in one currency. Only conditional UPDATEs change it, in the same transaction
 * as the journal row that explains the change; the CHECK is the last line against overdraft.
 */
export const wallets = mysqlTable(
  "wallets",
  {
    id: rowId("id").autoincrement().primaryKey(),
    playerId: rowId("player_id").notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    balance: money("balance").notNull().default(sql`0`),
    /** The `wallet_seq` of its newest journal line (0 before the first): moved with the balance. */
    seq: rowId("seq").notNull().default(0),
    updatedAt: timestamp3("updated_at").notNull().default(sql`CURRENT_TIMESTAMP(3)`),
  },
  (t) => [
    uniqueIndex("wallets_player_currency").on(t.playerId, t.currency),
    check("wallets_balance_not_negative", sql`${t.balance} >= 0`),
  ],
);
