import { conflictPause, mayRetry, type RetryBudget } from "./conflict-retry.ts";
import type { Db, Tx } from "./db.ts";
import { isTransientLockError, mysqlErrno } from "./mysql-errors.ts";

export interface RetryPolicy extends RetryBudget {
  /** Extra error numbers that mean "a concurrent twin got there first: run again". */
  alsoRetryOn?: readonly number[];
  onRetry?: (errno: number | undefined, attempt: number) => void;
}

const defaultPolicy: RetryPolicy = { attempts: 5 };

/**
 * Runs `work` in one MySQL transaction. Deadlocks and lock-wait timeouts roll everything back and
 * run the whole transaction again (never a single statement), with a short jittered pause, within
 * the policy's budget (`conflict-retry.ts`).
 */
export async function withTransaction<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  policy = defaultPolicy,
): Promise<T> {
  const startedAt = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const errno = mysqlErrno(error);
      const retryable =
        isTransientLockError(error) || (errno !== undefined && (policy.alsoRetryOn ?? []).includes(errno));
      if (!retryable || !mayRetry(policy, attempt, startedAt)) throw error;
      policy.onRetry?.(errno, attempt);
      await conflictPause(attempt);
    }
  }
}
