/**
 * The server error numbers the ledger reacts to, for every server it runs on (MySQL 8.4, MariaDB
 * 10.11+, TiDB), in one place: the transaction retries (`transaction.ts`, `sql/multi-statement.ts`)
 * and the worker's failure classes (`apps/worker/src/failure-kind.ts`) read them from here.
 */
export const ER_DUP_ENTRY = 1062;
export const ER_LOCK_WAIT_TIMEOUT = 1205;
export const ER_LOCK_DEADLOCK = 1213;
/** "Command denied to user for table": a grant the runtime user lacks (the same number on all three). */
export const ER_TABLEACCESS_DENIED = 1142;

/**
 * A transaction that lost to another: rolled back by the server, safe to run again whole. MySQL and
 * MariaDB: deadlock (1213), lock wait timeout (1205). TiDB (https://docs.pingcap.com/tidb/stable/error-codes):
 * 8002 (a SELECT FOR UPDATE transaction met a commit conflict), 8005 (write conflict, txnStartTS is
 * stale), 8022 (commit failed, rolled back), 8028 (table schema changed during the transaction), 9007
 * (write conflict in TiKV; its pessimistic transactions report conflicts so). Galera's certification
 * failures and brute-force aborts come back as 1213 (run: `faults/src/faults/galera-failover.faults.test.ts`);
 * MySQL Group Replication's as 3101, "Plugin instructed the server to rollback the current
 * transaction" (read, not run). And 1305, "SAVEPOINT … does not exist": the multi-statement
 * transactions' guard before COMMIT (`sql/multi-statement.ts`), failing because the server rolled the
 * transaction back mid-packet and its rest ran in a new one (the ledger has no stored routines, the
 * number's other meaning).
 */
export const ER_SAVEPOINT_DOES_NOT_EXIST = 1305;
export const transactionConflictErrnos: ReadonlySet<number> = new Set([
  ER_LOCK_DEADLOCK,
  ER_SAVEPOINT_DOES_NOT_EXIST,
  ER_LOCK_WAIT_TIMEOUT,
  3101,
  8002,
  8005,
  8022,
  8028,
  9007,
]);

/**
 * A server that may not take writes now: read-only or fenced, as a replica, a demoted primary that came
 * back after a failover, or a primary a failover tool is fencing: read_only/super_read_only (1290,
 * ER_OPTION_PREVENTS_STATEMENT), read-only mode (1836, ER_READ_ONLY_MODE: MariaDB, and TiDB's
 * tidb_super_read_only), a read-only transaction (1792). And a Galera node outside the primary
 * component (1047, "WSREP has not yet prepared node for application use"). The wallet's address will
 * point at a writable primary again: the call is a 503 the platform resends, never an answer, and
 * nothing of it is stored (the transaction is rolled back).
 */
export const readOnlyErrnos: ReadonlySet<number> = new Set([1047, 1290, 1792, 1836]);

/**
 * The database itself unavailable or overloaded, for a while: too many connections (1040), shutting
 * down (1053), query interrupted (1317), connection killed (1927), read-only or fenced (`readOnlyErrnos`),
 * a Group Replication member that cannot commit now (3100, its hook refusing: not ONLINE, or no
 * majority; also a transaction over its size limit, 150 MB by default, which the 8 MB body limit keeps
 * the wallet far from), a transaction held through a Group Replication primary failover that timed
 * out, was killed or whose member failed (3781, 3782, 3783);
 * TiDB: PD or TiKV timeout (9001, 9002), TiKV busy (9003), a Raft group unavailable (9005). A call
 * that meets one is a 503 (the platform resends), never an answer.
 */
export const serverUnavailableErrnos: ReadonlySet<number> = new Set([
  1040,
  1053,
  1317,
  1927,
  3100,
  3781,
  3782,
  3783,
  ...readOnlyErrnos,
  9001,
  9002,
  9003,
  9005,
]);

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
