import type { Db, Tx } from "./db.ts";
import { isTransientLockError, mysqlErrno } from "./mysql-errors.ts";

export interface RetryPolicy {
  attempts: number;
  /** Extra error numbers that mean "a concurrent twin got there first: run again". */
  alsoRetryOn?: readonly number[];
  onRetry?: (errno: number | undefined, attempt: number) => void;
}

const defaultPolicy: RetryPolicy = { attempts: 5 };

/**
 * Runs `work` in one MySQL transaction. Deadlocks and lock-wait timeouts roll everything back and
 * run the whole transaction again (never a single statement), with a short jittered pause.
 */
export async function withTransaction<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  policy = defaultPolicy,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const errno = mysqlErrno(error);
      const retryable =
        isTransientLockError(error) || (errno !== undefined && (policy.alsoRetryOn ?? []).includes(errno));
      if (!retryable || attempt >= policy.attempts) throw error;
      policy.onRetry?.(errno, attempt);
      await sleep(Math.random() * 5 * attempt);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
