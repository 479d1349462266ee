/**
 * The size limits of the three servers the ledger's statements and transactions must stay under,
 * at their defaults (docs/databases.md, "What each server needs"), each with where it is written.
 * `size-budgets.ts` holds the product's worst cases to the smallest of each.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export interface ServerLimit {
  server: string;
  setting: string;
  bytes: number;
  source: string;
}

/** The largest packet (one round trip's statements, or one prepared statement and its values) a server takes. */
export const maxAllowedPacket: ServerLimit[] = [
  {
    server: "MySQL 8.4",
    setting: "max_allowed_packet",
    bytes: 64 * MiB,
    source: "https://dev.mysql.com/doc/refman/8.4/en/packet-too-large.html",
  },
  {
    // Read here too: `SELECT @@max_allowed_packet` on the machine's MariaDB 10.11.19 answers 16777216.
    server: "MariaDB 10.11",
    setting: "max_allowed_packet",
    bytes: 16 * MiB,
    source: "https://mariadb.com/docs/server/ref/mdb/system-variables/max_allowed_packet",
  },
  {
    server: "TiDB",
    setting: "max_allowed_packet",
    bytes: 64 * MiB,
    source: "https://docs.pingcap.com/tidb/stable/system-variables#max_allowed_packet-new-in-v610",
  },
];

/**
 * The largest transaction a server or cluster takes: all the rows it writes (for Group Replication,
 * the binary-log events, whose row images with binlog_row_image=FULL hold an UPDATE's row before and
 * after). The binary-log cache is no limit: `max_binlog_cache_size` defaults to its maximum on MySQL
 * 8.4 and MariaDB (read here: 18446744073709547520), and Galera's `wsrep_max_ws_size` is 2 GiB.
 */
export const maxTransaction: ServerLimit[] = [
  {
    server: "TiDB",
    setting: "txn-total-size-limit",
    bytes: 100 * MiB,
    source: "https://docs.pingcap.com/tidb/stable/tidb-configuration-file#txn-total-size-limit",
  },
  {
    server: "MySQL Group Replication",
    setting: "group_replication_transaction_size_limit",
    bytes: 150_000_000,
    source:
      "https://dev.mysql.com/doc/refman/8.4/en/group-replication-options.html#sysvar_group_replication_transaction_size_limit",
  },
];

/** The largest row (key-value entry) TiDB writes. */
export const maxEntry: ServerLimit = {
  server: "TiDB",
  setting: "txn-entry-size-limit",
  bytes: 6 * MiB,
  source:
    "https://docs.pingcap.com/tidb/stable/tidb-configuration-file#txn-entry-size-limit-new-in-v4010-and-v500",
};

export const smallestPacket = Math.min(...maxAllowedPacket.map((limit) => limit.bytes));
export const smallestTransaction = Math.min(...maxTransaction.map((limit) => limit.bytes));

/** A budget must stay under half the limit: room for what the model leaves out (statement text, overheads). */
export const budgetShare = 0.5;
