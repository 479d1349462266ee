import { char, index, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, money, rowId } from "./columns.ts";

export const journalKinds = ["OPENING", "BET", "WIN", "FREE_BET_WIN", "ROLL_BACK", "ADJUSTMENT"] as const;
export type JournalKind = (typeof journalKinds)[number];

/**
 * Every money movement, insert-only: the runtime user is granted no UPDATE or DELETE on it
 * (`privileges.ts`). A wallet's balance is the sum of its entries' `amount` (credits positive,
 * debits negative); `ledger:verify` proves it. A wallet's lines are ordered by `wallet_seq` (1, 2,
 * …, no gap), written in the transaction that moves the balance, under the wallet's lock: the
 * order they were booked in on every server. The `id` gives no order (on TiDB auto-increment ids
 * are ordered only per TiDB server).
 */
export const journalEntries = mysqlTable(
  "journal_entries",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    playerId: rowId("player_id").notNull(),
    walletId: rowId("wallet_id").notNull(),
    /** This line's place in its wallet's journal: the wallet's `seq` after it. */
    walletSeq: rowId("wallet_seq").notNull(),
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
    uniqueIndex("journal_wallet_seq").on(t.walletId, t.walletSeq),
    index("journal_player").on(t.playerId, t.walletId, t.walletSeq),
    index("journal_round").on(t.tenantId, t.roundId),
  ],
);
