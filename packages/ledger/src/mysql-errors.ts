/**
 * The server error numbers the ledger reacts to, for every server it runs on (MySQL 8.4, MariaDB
 * 10.11+, TiDB), in one place: the transaction retries (`transaction.ts`, `sql/multi-statement.ts`),
 * the worker's failure classes (`apps/worker/src/failure-kind.ts`), its retry metric's label
 * (`retryErrorLabel`) and retention's handling of a transaction too large (`retention/`) read them
 * from here. `docs/databases.md` ("Transient errors") lists the same table, and `mysql-errors.test.ts`
 * holds the two to each other, code by code.
 */
export const ER_DUP_ENTRY = 1062;
export const ER_LOCK_WAIT_TIMEOUT = 1205;
export const ER_LOCK_DEADLOCK = 1213;
/** "Command denied to user for table": a grant the runtime user lacks (the same number on all three). */
export const ER_TABLEACCESS_DENIED = 1142;
/**
 * "SAVEPOINT … does not exist": the multi-statement transactions' guard before COMMIT
 * (`sql/multi-statement.ts`), failing because the server rolled the transaction back mid-packet and
 * its rest ran in a new one (the ledger has no stored routines, the number's other meaning).
 */
export const ER_SAVEPOINT_DOES_NOT_EXIST = 1305;

/**
 * What the ledger does with a server error:
 * - `conflict`: the transaction lost to another and was rolled back; running it again whole is safe
 *   and likely to succeed (`withTransaction`, the batch's `multiStatementTransaction`), each rerun
 *   counted by `wallet_ledger_transaction_retries_total{error=<label>}`; a 503 once the attempts run out.
 * - `unavailable`: the server (or the connection to it) cannot serve now, for a while: not rerun at
 *   once; a callback is a 503 the platform resends, a side effect is retried as is and never counted
 *   toward its death (`isInfrastructureError`).
 * - `read_only`: `unavailable`, and the fence's cue (`fence.ts`): the server may not take writes.
 * - `too_large`: the transaction is over a size limit of the server's; the same transaction is
 *   refused again however often it is sent, so it is never rerun or retried as transient: a side
 *   effect's attempt counts toward its death (a person sees it dead-lettered), retention deletes such
 *   a row alone and steps over it when even that is refused (`retention/prune-expired.ts`), and a
 *   callback is a 503 (never a final answer the ledger could not store; the platform resends it 5 times).
 */
export type ErrorClass = "conflict" | "unavailable" | "read_only" | "too_large";

/** `wallet_ledger_transaction_retries_total`'s `error` label; every value starts at 0. */
export const retryErrorLabels = [
  "deadlock",
  "lock_wait_timeout",
  "duplicate_key",
  "write_conflict",
  "schema_changed",
  "other",
] as const;
export type RetryErrorLabel = (typeof retryErrorLabels)[number];

export interface ClassedError {
  errno: number;
  class: ErrorClass;
  /** The retry metric's label: only `conflict` errors are rerun, so only they are counted. */
  label?: RetryErrorLabel;
}

const classed = (errorClass: ErrorClass, ...errnos: number[]): ClassedError[] =>
  errnos.map((errno) => ({ errno, class: errorClass }));
const conflicts = (label: RetryErrorLabel, ...errnos: number[]): ClassedError[] =>
  errnos.map((errno) => ({ errno, class: "conflict", label }));

/**
 * Every error the ledger classes. What each number means, and on which server, is the table of
 * `docs/databases.md` ("Transient errors"), checked against MySQL 8.4's, MariaDB's and TiDB's error
 * references (https://docs.pingcap.com/tidb/stable/error-codes); `mysql-errors.test.ts` holds the two
 * lists to each other.
 */
export const classedErrors: readonly ClassedError[] = [
  // Deadlock (Galera's certification failures and brute-force aborts too), lock wait timeout.
  ...conflicts("deadlock", ER_LOCK_DEADLOCK),
  ...conflicts("lock_wait_timeout", ER_LOCK_WAIT_TIMEOUT),
  ...conflicts("other", ER_SAVEPOINT_DOES_NOT_EXIST),
  // Group Replication's certification failure; TiDB's write conflicts.
  ...conflicts("write_conflict", 3101, 8002, 8005, 8022, 9007),
  // TiDB: the schema changed under the transaction, or this TiDB server's is out of date.
  ...conflicts("schema_changed", 8027, 8028),
  // Too many connections, shutting down, interrupted, killed, disconnected for inactivity (MySQL's
  // 4031); held through a Group Replication failover; TiDB: PD, TiKV, lock resolution, Region.
  ...classed("unavailable", 1040, 1053, 1317, 1927, 4031, 3781, 3782, 3783, 9001, 9002, 9003, 9004, 9005),
  ...classed("read_only", 1290, 1836, 1792, 1047),
  // Over max_binlog_cache_size (MySQL, MariaDB); Group Replication's before_commit refusal; TiDB's
  // transaction and entry limits.
  ...classed("too_large", 1197, 3100, 8004, 8025, 9500),
];

const errnosOf = (...classes: ErrorClass[]): ReadonlySet<number> =>
  new Set(classedErrors.filter((error) => classes.includes(error.class)).map((error) => error.errno));

/** A transaction that lost to another: rolled back by the server, safe to run again whole. */
export const transactionConflictErrnos = errnosOf("conflict");

/**
 * A server that may not take writes now: read-only or fenced (a replica, a demoted primary that came
 * back after a failover, or a primary a failover tool is fencing), or a Galera node outside the primary
 * component. The wallet's address will point at a writable primary again: the call is a 503 the
 * platform resends, never an answer, and nothing of it is stored (the transaction is rolled back).
 */
export const readOnlyErrnos = errnosOf("read_only");

/** The database unavailable or overloaded, for a while (read-only included): a 503, never an answer. */
export const serverUnavailableErrnos = errnosOf("unavailable", "read_only");

/**
 * Over a size limit of the server's (the binary log's `max_binlog_cache_size`; Group Replication's
 * `group_replication_transaction_size_limit`, 150,000,000 bytes by default; TiDB's
 * `txn-total-size-limit`, 100 MiB, and `txn-entry-size-limit`, 6 MiB). Permanent: the same
 * transaction is refused again, so it is never rerun or retried as transient.
 * MySQL's 3100 is any refusal of Group Replication's before_commit hook, also a member leaving the
 * group with transactions in flight: classed by the size meaning, so such a transaction costs a side
 * effect one counted attempt (and a callback the 503 it gets anyway), never an endless retry.
 */
export const transactionTooLargeErrnos = errnosOf("too_large");

/**
 * Not the server's: the code of the error every statement of a fenced Database gets, sent nowhere
 * (`fence.ts`: its server was found read-only). Like `readOnlyErrnos`, a 503 the platform resends.
 */
export const DATABASE_FENCED = "WALLET_DB_FENCED";

/**
 * Not the server's either: the code of the error a statement gets, unsent, when the connection it would
 * go out on could not be given the session the ledger needs (`session-gate.ts`: isolation, lock wait,
 * sql_mode, time zone, binary log format, TiDB's CHECK constraints). A 503 the platform resends.
 */
export const DATABASE_SESSION = "WALLET_DB_SESSION";

/** The first of the error and its causes (drizzle wraps mysql2's errors) for which `pick` finds something. */
function inCauses<T>(error: unknown, pick: (link: { errno?: unknown; code?: unknown }) => T | undefined) {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const found = pick(current as { errno?: unknown; code?: unknown });
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The server's error number, looking through drizzle's DrizzleQueryError wrapper. */
export function mysqlErrno(error: unknown): number | undefined {
  return inCauses(error, ({ errno }) => (typeof errno === "number" ? errno : undefined));
}

/** A statement refused unsent because its Database is fenced (`DATABASE_FENCED`). */
export function isDatabaseFenced(error: unknown): boolean {
  return inCauses(error, ({ code }) => (code === DATABASE_FENCED ? true : undefined)) ?? false;
}

/**
 * A statement the Database refused unsent, fenced or on a connection whose session was refused: said
 * once in the process's log when it began, so not logged again per statement.
 */
export function isDatabaseRefused(error: unknown): boolean {
  const code = inCauses(error, ({ code }) =>
    code === DATABASE_FENCED || code === DATABASE_SESSION ? code : undefined,
  );
  return code !== undefined;
}

/** Errors after which running the whole transaction again is safe and likely to succeed. */
export function isTransientLockError(error: unknown): boolean {
  const errno = mysqlErrno(error);
  return errno !== undefined && transactionConflictErrnos.has(errno);
}

/** A transaction over a server's size limit: refused again if sent again (`transactionTooLargeErrnos`). */
export function isTransactionTooLarge(error: unknown): boolean {
  const errno = mysqlErrno(error);
  return errno !== undefined && transactionTooLargeErrnos.has(errno);
}

/**
 * The `error` label of a transaction retry: the classed error's (`classedErrors`), `duplicate_key`
 * for 1062 (a concurrent twin, rerun where a verb asks for it: `RetryPolicy.alsoRetryOn`), else `other`.
 */
export function retryErrorLabel(errno: number | undefined): RetryErrorLabel {
  if (errno === ER_DUP_ENTRY) return "duplicate_key";
  return classedErrors.find((error) => error.errno === errno)?.label ?? "other";
}
