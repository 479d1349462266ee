import { char, index, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, money, rowId } from "./columns.ts";

export const journalKinds = ["OPENING", "BET", "WIN", "FREE_BET_WIN", "ROLL_BACK", "ADJUSTMENT"] as const;
export type JournalKind = (typeof journalKinds)[number];

/**
 * Every money movement, insert-only (triggers refuse UPDATE and DELETE). A wallet's balance is the
 * sum of its entries' `amount` (credits positive, debits negative); `ledger:verify` proves it.
 */
export const journalEntries = mysqlTable(
  "journal_entries",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    playerId: rowId("player_id").notNull(),
    walletId: rowId("wallet_id").notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    kind: varchar("kind", { length: 16, enum: journalKinds }).notNull(),
    amount: money("amount").notNull(),
    balanceAfter: money("balance_after").notNull(),
    operatorTxId: idString("operator_tx_id", 40).notNull(),
    providerTxId: idString("provider_tx_id", 128),
    roundId: idString("round_id", 128),
    game: idString("game", 128),
    betId: rowId("bet_id"),
    /**
     * Why this line is unusual, when it is (`anomalies.ts`: a WIN above maxwin, a second WIN, a
     * ROLL_BACK that does not match its bet), comma-separated; null for an ordinary line.
     */
    anomaly: varchar("anomaly", { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [
    index("journal_wallet").on(t.walletId, t.id),
    index("journal_player").on(t.playerId, t.id),
    index("journal_round").on(t.tenantId, t.roundId),
  ],
);
