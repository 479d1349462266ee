/**
 * How long a transaction that lost a conflict (a deadlock, a lock-wait timeout, Galera's brute-force
 * abort or certification failure, TiDB's write conflict) is run again before its callers get a 503.
 *
 * A count alone was too short: five quick attempts spent about 50 ms, and a second writer committing
 * on the same wallet rows every few milliseconds (a Galera node written through two nodes) beat all
 * five often enough that a callback lost six of the platform's sends in a row (the contract allows
 * six: the first and five resends), and the platform gave it up. A 503 costs the platform a resend
 * after seconds; another attempt here costs milliseconds. So a conflict always gets `attempts`, and
 * more while `retryMs` has not passed since the first: the gateway answers 503 at its deadline
 * (2.5 s by default) anyway, and a stored answer then waits for the resend.
 */
export interface RetryBudget {
  /** Attempts a conflict always gets, the first included. */
  attempts: number;
  /** More attempts while less than this many milliseconds have passed since `startedAt`. */
  retryMs?: number;
}

/** Whether attempt `attempt` (1 for the first), which lost a conflict, may be followed by another. */
export function mayRetry(budget: RetryBudget, attempt: number, startedAt: number): boolean {
  return attempt < budget.attempts || performance.now() - startedAt < (budget.retryMs ?? 0);
}

/**
 * A short jittered pause before attempt `attempt + 1`: growing to at most 20 ms, so twins that
 * deadlocked each other do not meet again in step, and a retry never waits out a conflict-free gap.
 */
export function conflictPause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt, 4)));
}
