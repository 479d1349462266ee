/**
 * The constructs outside the common dialect of MySQL 8.4, MariaDB 10.11+ and TiDB (docs/databases.md):
 * each with the servers that lack it and where that is written. `check.ts` holds every migration and
 * every statement the integration tests sent (`portability.gate.test.ts`) to this list. Patterns see
 * a statement whose string literals and comments are already blanked out.
 */
export interface Forbidden {
  name: string;
  pattern: RegExp;
  /** Which servers refuse it or give it another meaning, and what to write instead. */
  why: string;
  sources: string[];
}

const mysqlCollations = "https://dev.mysql.com/doc/refman/8.4/en/charset-unicode-sets.html";
const tidbCollations = "https://docs.pingcap.com/tidb/stable/character-set-and-collation";
const tidbUnsupported = "https://docs.pingcap.com/tidb/v8.4/mysql-compatibility";
const mariadbVsMysql =
  "https://mariadb.com/kb/en/incompatibilities-and-feature-differences-between-mariadb-104-and-mysql-80";
const mysqlAlterTable = "https://dev.mysql.com/doc/refman/8.4/en/alter-table.html";
const mysqlCreateIndex = "https://dev.mysql.com/doc/refman/8.4/en/create-index.html";
const mysqlSelect = "https://dev.mysql.com/doc/refman/8.4/en/select.html";
const mariadbSelect = "https://mariadb.com/kb/en/select/";

/** Collations every server names alike; ids are VARBINARY and need none (`schema/columns.ts`). */
export const commonCollations = ["utf8mb4_bin", "binary"];

export const forbidden: Forbidden[] = [
  {
    name: "MariaDB's NO PAD collations",
    pattern: /\b\w+_nopad_\w+/i,
    why: "MariaDB-only names (MySQL 8.4 error 1273, TiDB unknown collation): store exact ids as VARBINARY",
    sources: [
      mysqlCollations,
      tidbCollations,
      "https://mariadb.com/kb/en/supported-character-sets-and-collations/",
    ],
  },
  {
    name: "MySQL's UCA 9.0.0 collations (utf8mb4_0900_*)",
    pattern: /\butf8mb4_0900_\w+/i,
    why: "MariaDB has them only from 11.4.5: MariaDB 10.11 refuses them (error 1273)",
    sources: ["https://mariadb.com/kb/en/mariadb-11-4-5-release-notes/", mysqlCollations],
  },
  {
    name: "MariaDB's UCA 14.0.0 collations (utf8mb4_uca1400_*)",
    pattern: /\b\w+_uca1400_\w+/i,
    why: "MariaDB-only (10.10+): MySQL 8.4 and TiDB do not have them",
    sources: [mysqlCollations, tidbCollations],
  },
  {
    name: "a collation outside the common set",
    pattern: new RegExp(`\\bCOLLATE\\s*=?\\s*(?!(?:${commonCollations.join("|")})\\b)\\w+`, "i"),
    why: `each server names and orders the others differently, and TiDB has only a few: use ${commonCollations.join(" or ")}`,
    sources: [mysqlCollations, tidbCollations],
  },
  {
    name: "LOCK IN SHARE MODE",
    pattern: /\bLOCK\s+IN\s+SHARE\s+MODE\b/i,
    why: "TiDB refuses it unless tidb_enable_noop_functions is on, and then takes no lock: lock with FOR UPDATE",
    sources: [
      "https://docs.pingcap.com/tidb/stable/system-variables#tidb_enable_noop_functions-new-in-v40",
      "https://dev.mysql.com/doc/refman/8.4/en/innodb-locking-reads.html",
    ],
  },
  {
    name: "FOR SHARE",
    pattern: /\bFOR\s+SHARE\b/i,
    why: "MariaDB has only LOCK IN SHARE MODE (which TiDB refuses): lock with FOR UPDATE",
    sources: [mariadbSelect, "https://dev.mysql.com/doc/refman/8.4/en/innodb-locking-reads.html"],
  },
  {
    name: "FOR UPDATE WAIT n",
    pattern: /\bFOR\s+UPDATE\s+WAIT\b/i,
    why: "MariaDB-only: set innodb_lock_wait_timeout for the session instead",
    sources: [mariadbSelect, mysqlSelect],
  },
  {
    name: "triggers, stored routines and events",
    pattern: /\bCREATE\s+(?:DEFINER\s*=\s*\S+\s+)?(?:TRIGGER|PROCEDURE|FUNCTION|EVENT)\b/i,
    why: "TiDB has none; with binary logging on (MySQL 8.4's default, every managed MySQL) a trigger or function needs SUPER or log_bin_trust_function_creators: enforce with grants",
    sources: [tidbUnsupported, "https://dev.mysql.com/doc/refman/8.4/en/stored-programs-logging.html"],
  },
  {
    name: "SIGNAL and RESIGNAL",
    pattern: /\b(?:RE)?SIGNAL\s+SQLSTATE\b/i,
    why: "only inside stored programs, which TiDB does not have",
    sources: [tidbUnsupported, "https://dev.mysql.com/doc/refman/8.4/en/signal.html"],
  },
  {
    name: "RETURNING",
    pattern: /\bRETURNING\b/i,
    why: "MariaDB-only (INSERT/DELETE … RETURNING): read the row back, or use LAST_INSERT_ID()",
    sources: [
      "https://mariadb.com/kb/en/insertreturning/",
      "https://dev.mysql.com/doc/refman/8.4/en/insert.html",
    ],
  },
  {
    name: "IF [NOT] EXISTS on a column or an index",
    pattern:
      /\b(?:ADD|DROP|MODIFY|CHANGE)\s+(?:COLUMN\s+|(?:UNIQUE\s+)?(?:INDEX|KEY)\s+)?IF\s+(?:NOT\s+)?EXISTS\b|\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+IF\s+NOT\s+EXISTS\b/i,
    why: "MySQL 8.4 has neither: a migration step checks information_schema first (`migrations/probes.ts`)",
    sources: [mysqlAlterTable, mysqlCreateIndex, "https://mariadb.com/kb/en/alter-table/"],
  },
  {
    name: "a row alias in INSERT … ON DUPLICATE KEY UPDATE",
    pattern: /\)\s+AS\s+`?\w+`?(?:\s*\([^()]*\))?\s+ON\s+DUPLICATE\s+KEY\s+UPDATE\b/i,
    why: "MySQL-only (8.0.19+): MariaDB refuses it; write VALUES(column), which all three take",
    sources: [
      "https://dev.mysql.com/doc/refman/8.4/en/insert-on-duplicate.html",
      "https://mariadb.com/kb/en/values-value/",
    ],
  },
  {
    name: "sequences",
    pattern:
      /\b(?:CREATE|ALTER|DROP)\s+SEQUENCE\b|\bNEXTVAL\s*\(|\bLASTVAL\s*\(|\bSETVAL\s*\(|\bNEXT\s+VALUE\s+FOR\b/i,
    why: "MySQL 8.4 has no sequences: use AUTO_INCREMENT or a counter row",
    sources: [mariadbVsMysql, "https://docs.pingcap.com/tidb/stable/sql-statement-create-sequence"],
  },
  {
    name: "system-versioned and application-time tables",
    pattern: /\bWITH\s+SYSTEM\s+VERSIONING\b|\bFOR\s+SYSTEM_TIME\b|\bPERIOD\s+FOR\b/i,
    why: "MariaDB-only",
    sources: [mariadbVsMysql],
  },
  {
    name: "OFFSET … FETCH FIRST/NEXT",
    pattern: /\bFETCH\s+(?:FIRST|NEXT)\b/i,
    why: "MySQL 8.4 has only LIMIT",
    sources: [mysqlSelect, "https://mariadb.com/kb/en/select-offset-fetch/"],
  },
  {
    name: "LIMIT ROWS EXAMINED",
    pattern: /\bROWS\s+EXAMINED\b/i,
    why: "MariaDB-only",
    sources: [mariadbSelect],
  },
  {
    name: "JSON_TABLE",
    pattern: /\bJSON_TABLE\s*\(/i,
    why: "TiDB does not have it",
    sources: ["https://docs.pingcap.com/tidb/stable/json-functions"],
  },
  {
    name: "FULLTEXT and SPATIAL",
    pattern: /\b(?:FULLTEXT|SPATIAL)\b|\bMATCH\s*\([^)]*\)\s*AGAINST\b/i,
    why: "TiDB does not have them",
    sources: [tidbUnsupported],
  },
  {
    name: "LOCK TABLES",
    pattern: /\bLOCK\s+TABLES?\b/i,
    why: "TiDB refuses it unless enable-table-lock is set; InnoDB row locks (FOR UPDATE) or GET_LOCK serialize work on all three",
    sources: ["https://docs.pingcap.com/tidb/stable/sql-statement-lock-tables-and-unlock-tables"],
  },
  {
    name: "CREATE TABLE … SELECT",
    pattern: /\bCREATE\s+(?:TEMPORARY\s+)?TABLE\b[^;(]*(?:\([^;]*\))?\s*(?:AS\s+)?SELECT\b/i,
    why: "TiDB refuses CREATE TABLE … AS SELECT",
    sources: [tidbUnsupported],
  },
  {
    name: "a storage engine other than InnoDB",
    pattern: /\bENGINE\s*=\s*(?!InnoDB\b)\w+/i,
    why: "the ledger needs transactions: MyISAM, Aria and MEMORY have none, and TiDB ignores ENGINE",
    sources: [mariadbVsMysql, tidbUnsupported],
  },
  {
    name: "assigning a user variable inside an expression",
    pattern: /@\w+\s*:=/,
    why: "deprecated by MySQL 8.4 and due to be removed",
    sources: ["https://dev.mysql.com/doc/refman/8.4/en/user-variables.html"],
  },
  {
    name: "a statement time limit variable",
    pattern: /\bMAX_STATEMENT_TIME\b|\bMAX_EXECUTION_TIME\b/i,
    why: "MariaDB's is max_statement_time (seconds), MySQL's and TiDB's max_execution_time (ms, SELECT only): neither exists on the other",
    sources: [
      "https://mariadb.com/kb/en/aborting-statements/",
      "https://dev.mysql.com/doc/refman/8.4/en/server-system-variables.html",
    ],
  },
  {
    name: "a function one of the servers lacks",
    pattern:
      /\b(?:JSON_DETAILED|JSON_EQUALS|JSON_NORMALIZE|NATURAL_SORT_KEY|SFORMAT|COLUMN_CREATE|COLUMN_GET|COLUMN_JSON|ADD_MONTHS|TO_CHAR|SYS_GUID|ANY_VALUE|REGEXP_LIKE|BIN_TO_UUID|UUID_TO_BIN|STATEMENT_DIGEST|FORMAT_BYTES|FORMAT_PICO_TIME)\s*\(/i,
    why: "MariaDB-only (JSON_DETAILED … SYS_GUID) or MySQL/TiDB-only (ANY_VALUE … FORMAT_PICO_TIME)",
    sources: [mariadbVsMysql, "https://dev.mysql.com/doc/refman/8.4/en/built-in-function-reference.html"],
  },
];
