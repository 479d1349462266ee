import {
  all,
  any,
  hasColumn,
  hasColumns,
  hasIndex,
  noneLeft,
  noTrigger,
  not,
  type Probe,
  tableCollation,
  textCollation,
} from "./probes.ts";

/** One statement of a migration and what tells it already happened (`probes.ts`). */
export interface Step {
  sql: string;
  /** Undefined only for a statement that is itself re-runnable (CREATE TABLE IF NOT EXISTS). */
  applied?: Probe;
}

/** The id columns (VARBINARY since the baseline) of each table, `null` where the id is optional. */
const idColumns: Record<string, Array<[column: string, bytes: number, notNull: boolean]>> = {
  bets: [
    ["provider_tx_id", 512, true],
    ["round_id", 512, true],
    ["game", 512, true],
    ["rollback_provider_tx_id", 512, false],
  ],
  free_bet_grants: [["game", 512, false]],
  game_sessions: [
    ["session_token", 256, true],
    ["user_token", 256, true],
  ],
  idempotency_records: [["provider_tx_id", 628, true]],
  journal_entries: [
    ["operator_tx_id", 160, true],
    ["provider_tx_id", 512, false],
    ["round_id", 512, false],
    ["game", 512, false],
  ],
  loyalty_awards: [["round_id", 512, true]],
  outbox: [["event_id", 800, true]],
  players: [["user_id", 256, true]],
  refused_closes: [
    ["round_id", 512, false],
    ["provider_tx_id", 1020, false],
  ],
  round_closes: [
    ["round_id", 512, true],
    ["provider_tx_id", 628, true],
    ["operator_tx_id", 160, true],
    ["game", 512, true],
  ],
  round_reconciliations: [["round_id", 512, true]],
  round_reports: [
    ["round_id", 512, true],
    ["event_id", 800, true],
  ],
  rounds: [
    ["round_id", 512, true],
    ["game", 512, true],
  ],
  side_effect_failures: [
    ["event_id", 800, true],
    ["round_id", 512, true],
  ],
  side_effect_receipts: [["event_id", 800, true]],
  tenants: [["public_key", 512, true]],
  tournaments: [["game", 512, true]],
  user_tokens: [["token", 256, true]],
};

/**
 * Tables the earlier migrator made, each converted to the baseline's collation: their text columns
 * took the database's default (MySQL's is `utf8mb4_0900_ai_ci`, where 'a' = 'A').
 */
const legacyTables = [
  ...Object.keys(idColumns),
  "loyalty_balances",
  "operator_actions",
  "operator_api_tokens",
  "rg_daily",
  "tournament_scores",
  "wallets",
];

/**
 * Token columns that may still hold tokens in clear (an install stopped before migration 0010). Done
 * once the columns are VARBINARY (the conversion below comes after this step, and a fresh install
 * made them so), where MySQL's REGEXP would refuse to read them.
 */
const hashTokens = (table: string, columns: string[]): Step => {
  const clear = columns.map((column) => `${column} NOT REGEXP '^[0-9a-f]{64}$'`).join(" OR ");
  return {
    sql: `UPDATE ${table} SET ${columns.map((column) => `${column} = SHA2(${column}, 256)`).join(", ")} WHERE ${clear}`,
    applied: any(
      hasColumns(
        table,
        columns.map((column) => [column, "varbinary(256)"]),
      ),
      noneLeft(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clear}`),
    ),
  };
};

/**
 * Brings an install made by the earlier (drizzle) migrator to the baseline's tables, from wherever
 * it stopped: its last migration (MariaDB), or migration 0009, where MySQL refused the MariaDB-only
 * collation `utf8mb4_nopad_bin` and left the database half migrated. Every step has a probe, so on a
 * fresh install (the baseline already made every table as it should be) nothing runs, and a run
 * that failed at any step is run again from the top and finishes. In this order:
 * - the journal's append-only triggers dropped (its grants hold it now, and the journal is numbered
 *   below: no trigger may stand in the way, and none needs SUPER to create);
 * - tokens still in clear hashed, as migration 0010 did, while their columns are still text;
 * - every id column made VARBINARY, one ALTER per table (its UTF-8 bytes kept as they are, so ids
 *   unique under `utf8mb4_nopad_bin` stay unique), in the same ALTER as the table's other text is
 *   converted to `utf8mb4_bin` (a VARBINARY column has no character set: CONVERT TO leaves it be);
 * - the reconciliation summary (migration 0012) added where it was never added;
 * - each wallet's journal numbered in the order of its ids (what the ledger read as booking order
 *   until now, on the one server these installs run on), the wallets given their last number, then
 *   the number made required and unique, and the journal's player index made to follow it.
 */
export const convergeSteps: Step[] = [
  { sql: "DROP TRIGGER journal_entries_no_update", applied: noTrigger("journal_entries_no_update") },
  { sql: "DROP TRIGGER journal_entries_no_delete", applied: noTrigger("journal_entries_no_delete") },
  hashTokens("user_tokens", ["token"]),
  hashTokens("game_sessions", ["session_token", "user_token"]),
  ...Object.entries(idColumns).map(
    ([table, columns]): Step => ({
      sql:
        `ALTER TABLE ${table} CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, ` +
        columns
          .map(
            ([column, bytes, notNull]) =>
              `MODIFY COLUMN ${column} varbinary(${bytes})${notNull ? " NOT NULL" : " NULL"}`,
          )
          .join(", "),
      applied: all(
        tableCollation(table, "utf8mb4_bin"),
        textCollation(table, "utf8mb4_bin"),
        hasColumns(
          table,
          columns.map(([column, bytes]) => [column, `varbinary(${bytes})`]),
        ),
      ),
    }),
  ),
  ...legacyTables
    .filter((table) => !(table in idColumns))
    .map(
      (table): Step => ({
        sql: `ALTER TABLE ${table} CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
        applied: all(tableCollation(table, "utf8mb4_bin"), textCollation(table, "utf8mb4_bin")),
      }),
    ),
  {
    sql: "ALTER TABLE round_reconciliations ADD COLUMN summary text",
    applied: hasColumn("round_reconciliations", "summary"),
  },
  {
    sql: "ALTER TABLE wallets ADD COLUMN seq bigint unsigned NOT NULL DEFAULT 0",
    applied: hasColumn("wallets", "seq"),
  },
  {
    sql: "ALTER TABLE journal_entries ADD COLUMN wallet_seq bigint unsigned NULL AFTER wallet_id",
    applied: hasColumn("journal_entries", "wallet_seq"),
  },
  {
    sql:
      "UPDATE journal_entries j JOIN (SELECT id, ROW_NUMBER() OVER (PARTITION BY wallet_id ORDER BY id) AS n" +
      " FROM journal_entries) o ON o.id = j.id SET j.wallet_seq = o.n WHERE j.wallet_seq IS NULL",
    applied: noneLeft("SELECT COUNT(*) AS n FROM journal_entries WHERE wallet_seq IS NULL"),
  },
  {
    sql:
      "UPDATE wallets w JOIN (SELECT wallet_id, MAX(wallet_seq) AS top FROM journal_entries GROUP BY wallet_id) j" +
      " ON j.wallet_id = w.id SET w.seq = j.top WHERE w.seq <> j.top",
    applied: noneLeft(
      "SELECT COUNT(*) AS n FROM wallets w JOIN (SELECT wallet_id, MAX(wallet_seq) AS top" +
        " FROM journal_entries GROUP BY wallet_id) j ON j.wallet_id = w.id WHERE w.seq <> j.top",
    ),
  },
  {
    sql: "ALTER TABLE journal_entries MODIFY COLUMN wallet_seq bigint unsigned NOT NULL",
    applied: hasColumn("journal_entries", "wallet_seq", "bigint unsigned", false),
  },
  {
    sql: "ALTER TABLE journal_entries ADD UNIQUE INDEX journal_wallet_seq (wallet_id, wallet_seq)",
    applied: hasIndex("journal_entries", "journal_wallet_seq", ["wallet_id", "wallet_seq"]),
  },
  {
    sql: "ALTER TABLE journal_entries DROP INDEX journal_wallet",
    applied: not(hasIndex("journal_entries", "journal_wallet")),
  },
  {
    sql:
      "ALTER TABLE journal_entries DROP INDEX journal_player," +
      " ADD INDEX journal_player (player_id, wallet_id, wallet_seq)",
    applied: hasIndex("journal_entries", "journal_player", ["player_id", "wallet_id", "wallet_seq"]),
  },
];
