/** MySQL/MariaDB error numbers the ledger reacts to. */
export const ER_DUP_ENTRY = 1062;
export const ER_LOCK_WAIT_TIMEOUT = 1205;
export const ER_LOCK_DEADLOCK = 1213;

/** The server's error number, looking through drizzle's DrizzleQueryError wrapper. */
export function mysqlErrno(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const errno = (current as { errno?: unknown }).errno;
    if (typeof errno === "number") return errno;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Errors after which running the whole transaction again is safe and likely to succeed. */
export function isTransientLockError(error: unknown): boolean {
  const errno = mysqlErrno(error);
  return errno === ER_LOCK_DEADLOCK || errno === ER_LOCK_WAIT_TIMEOUT;
}
