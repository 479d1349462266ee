import type { Db } from "@wallet/ledger/db";
import { outboxBacklog } from "@wallet/ledger/side-effects/outbox-relay";

/**
 * Waits until every side effect owed so far is applied, so one run's backlog does not spend the
 * next run's CPU. Returns the backlog seen when the run ended and how long it took to drain.
 */
export async function drainSideEffects(
  db: Db,
  limitMs = 120_000,
): Promise<{ pendingAtEnd: number; drainSeconds: number }> {
  const started = performance.now();
  const { pending: pendingAtEnd } = await outboxBacklog(db);
  let pending = pendingAtEnd;
  while (pending > 0 && performance.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    pending = (await outboxBacklog(db)).pending;
  }
  return { pendingAtEnd, drainSeconds: Math.round((performance.now() - started) / 100) / 10 };
}
