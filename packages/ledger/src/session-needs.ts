import { flavorOf, flavorVariables, type ServerVariables } from "./server-flavor.ts";

/**
 * The session the ledger needs on every connection, and the verdict on what a new connection reads
 * back (`session-gate.ts` runs both). The verdict is a function of the server's answer alone, so what
 * only MySQL 8.4 or TiDB would answer is covered by unit tests (`session-needs.test.ts`).
 */

/**
 * The sql_mode every session runs with, whatever the server's default: MySQL 8.4's default without
 * ONLY_FULL_GROUP_BY (MariaDB applies it without MySQL's functional-dependency rule, so one query could
 * pass on one server and fail on the other). Every name is accepted by all three servers (MySQL 8.4
 * refuses NO_AUTO_CREATE_USER, MariaDB's default). Strict: a value that does not fit is an error, never
 * truncated or clamped with a warning. No NO_BACKSLASH_ESCAPES: mysql2 escapes values in the client
 * with backslashes. No ANSI_QUOTES or PIPES_AS_CONCAT: they change how a statement reads. The four of
 * strict mode and NO_ZERO_IN_DATE, NO_ZERO_DATE, ERROR_FOR_DIVISION_BY_ZERO go together (MySQL warns
 * otherwise); the ledger writes no zero dates.
 */
export const ledgerSqlMode =
  "STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";

/**
 * The statements that set a session, in order. READ COMMITTED: each statement sees the latest commit;
 * the unique keys and row locks carry correctness, with fewer gap locks to deadlock on. UTC: drizzle
 * reads and writes DATETIME as UTC. The lock wait: seconds, not InnoDB's 50, under a callback deadline.
 * Two statements: no isolation variable has one name on all three servers (`transaction_isolation` is
 * not in MariaDB 10.11, run here: 1193; `tx_isolation` is gone from MySQL 8), so the isolation is set
 * with `SET SESSION TRANSACTION`, which cannot share a statement with variable assignments.
 */
export function sessionStatements(lockWaitSeconds: number): string[] {
  return [
    "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
    `SET SESSION time_zone = '+00:00', SESSION innodb_lock_wait_timeout = ${lockWaitSeconds}, SESSION sql_mode = '${ledgerSqlMode}'`,
  ];
}

/** What a new connection reads back (`showVariables`), and `read_only` for a fenced Database. */
export const sessionVariables = [
  "time_zone",
  "transaction_isolation",
  "tx_isolation",
  "innodb_lock_wait_timeout",
  "sql_mode",
  "log_bin",
  "binlog_format",
  "read_only",
  ...flavorVariables,
];

const on = (value: string | undefined) => value !== undefined && /^(on|1|true)$/i.test(value.trim());

/** Whether the server reads read-only; a server without the variable is taken as writable. */
export const readsReadOnly = (variables: ServerVariables) => on(variables.read_only);

/**
 * What is wrong with a session the ledger set (`sessionStatements`) and read back: each problem says
 * what and what to do. None: it may serve.
 */
export function sessionProblems(variables: ServerVariables, lockWaitSeconds: number): string[] {
  const problems: string[] = [];
  const tidb = flavorOf(variables) === "tidb";
  const isolations = [variables.transaction_isolation, variables.tx_isolation].filter(
    (value): value is string => value !== undefined,
  );
  if (isolations.length === 0)
    problems.push(
      "the server shows neither transaction_isolation nor tx_isolation: its isolation is unknown",
    );
  else if (isolations.some((value) => value.toUpperCase() !== "READ-COMMITTED"))
    problems.push(`the transaction isolation is ${isolations.join("/")}, not READ-COMMITTED`);
  const timeZone = variables.time_zone ?? "(none)";
  if (!/^(\+00:00|UTC)$/i.test(timeZone))
    problems.push(`time_zone is ${timeZone}, not +00:00: DATETIME values would be read and written off UTC`);
  const lockWait = variables.innodb_lock_wait_timeout ?? "(none)";
  if (Number(lockWait) !== lockWaitSeconds)
    problems.push(`innodb_lock_wait_timeout is ${lockWait}, not ${lockWaitSeconds} s`);
  const sqlMode = sqlModeProblem(variables.sql_mode);
  if (sqlMode) problems.push(sqlMode);
  // Only row-based binary logging is supported with READ COMMITTED (MIXED logs those writes by row):
  // with STATEMENT, every InnoDB write fails with 1665 (MySQL's manual; run here on MariaDB 10.11:
  // faults/src/fence/session-refused.int.test.ts). TiDB has no such binary log.
  if (!tidb && on(variables.log_bin) && variables.binlog_format?.toUpperCase() === "STATEMENT")
    problems.push(
      "binlog_format is STATEMENT with binary logging on, which refuses every READ COMMITTED write (error 1665): set binlog_format = ROW (SET GLOBAL binlog_format = 'ROW', and in the server's configuration)",
    );
  if (tidb) problems.push(...tidbProblems(variables));
  return problems;
}

/** What the server's sql_mode lacks or has beyond `ledgerSqlMode`, with what that breaks. */
function sqlModeProblem(value: string | undefined): string | undefined {
  const modes = new Set((value ?? "").toUpperCase().split(",").filter(Boolean));
  const wanted = new Set(ledgerSqlMode.split(","));
  const missing = [...wanted].filter((mode) => !modes.has(mode));
  const extra = [...modes].filter((mode) => !wanted.has(mode));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const why = [
    ...(modes.has("STRICT_TRANS_TABLES") || modes.has("STRICT_ALL_TABLES")
      ? []
      : ["not strict: a value that does not fit would be stored truncated or clamped, with a warning"]),
    ...(modes.has("NO_BACKSLASH_ESCAPES")
      ? ["NO_BACKSLASH_ESCAPES: values escaped with backslashes (mysql2) would be stored wrong"]
      : []),
  ];
  return `sql_mode is "${value ?? ""}", not "${ledgerSqlMode}"${why.length ? ` (${why.join("; ")})` : ""}`;
}

/**
 * What the ledger needs of TiDB: its CHECK constraints enforced (no negative balance, no free bets
 * beyond the grant), which TiDB does only while `tidb_enable_check_constraint` is ON (v7.2+, OFF by
 * default), and pessimistic transactions, without which READ COMMITTED does not take effect and
 * `FOR UPDATE` does not wait.
 */
export function tidbProblems(variables: ServerVariables): string[] {
  const problems: string[] = [];
  const check = checkConstraintsProblem(variables);
  if (check) problems.push(check);
  const mode = variables.tidb_txn_mode;
  if (mode !== undefined && mode.toLowerCase() !== "pessimistic")
    problems.push(
      `TiDB runs optimistic transactions (tidb_txn_mode is "${mode}"): READ COMMITTED does not take effect and FOR UPDATE does not wait: SET GLOBAL tidb_txn_mode = 'pessimistic'`,
    );
  return problems;
}

/** On TiDB, unless it enforces CHECK constraints now: why not, and what to do. The migrator asks it too. */
export function checkConstraintsProblem(variables: ServerVariables): string | undefined {
  if (flavorOf(variables) !== "tidb") return undefined;
  const value = variables.tidb_enable_check_constraint;
  if (value === undefined)
    return "TiDB without tidb_enable_check_constraint (before v7.2) ignores CHECK constraints: the wallet's (no negative balance, no free bets beyond the grant) would not hold; run TiDB v7.5 or later with it ON";
  if (!on(value))
    return "TiDB's tidb_enable_check_constraint is OFF: the wallet's CHECK constraints (no negative balance, no free bets beyond the grant) are not enforced; SET GLOBAL tidb_enable_check_constraint = ON (docs/databases.md)";
  return undefined;
}
