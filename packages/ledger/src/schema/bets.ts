import { sql } from "drizzle-orm";
import { index, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, money, rowId } from "./columns.ts";

export const betKinds = ["BET", "FREE_BET"] as const;
/**
 * open: accepted, no outcome yet; won: has at least one WIN (can no longer be rolled back);
 * rolled_back: refunded once; tombstone: a ROLL_BACK came first, so a late BET moves no money.
 */
export const betStatuses = ["open", "won", "rolled_back", "tombstone"] as const;
export type BetStatus = (typeof betStatuses)[number];

/** Each bet by the platform's `provider_tx_id`, linking its wins and its rollback to it and its round. */
export const bets = mysqlTable(
  "bets",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    providerTxId: idString("provider_tx_id", 128).notNull(),
    playerId: rowId("player_id").notNull(),
    roundId: idString("round_id", 128).notNull(),
    game: idString("game", 128).notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    kind: varchar("kind", { length: 16, enum: betKinds }).notNull(),
    amount: money("amount").notNull(),
    status: varchar("status", { length: 16, enum: betStatuses }).notNull(),
    wonAmount: money("won_amount").notNull().default(sql`0`),
    winCount: int("win_count").notNull().default(0),
    freeBetGrantId: rowId("free_bet_grant_id"),
    rollbackProviderTxId: idString("rollback_provider_tx_id", 128),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("bets_tenant_provider_tx").on(t.tenantId, t.providerTxId),
    index("bets_tenant_round").on(t.tenantId, t.roundId),
    index("bets_player_round").on(t.playerId, t.roundId),
  ],
);
