import type { Db } from "@wallet/ledger/db";
import { outboxBacklog, sideEffectLagsMs } from "@wallet/ledger/side-effects/outbox-relay";

/**
 * Waits until every side effect owed so far is applied, so one run's backlog does not spend the
 * next run's CPU. Returns the backlog seen when the run ended, how long it took to drain, and the
 * side-effect lag of the rounds closed since `since` (close committed → its last effect committed).
 */
export async function drainSideEffects(
  db: Db,
  since = new Date(0),
  limitMs = 120_000,
): Promise<{ pendingAtEnd: number; drainSeconds: number; lagMs: { p50: number; p99: number; max: number } }> {
  const started = performance.now();
  const { pending: pendingAtEnd } = await outboxBacklog(db);
  let pending = pendingAtEnd;
  for (let turn = 1; pending > 0 && performance.now() - started < limitMs; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    pending = (await outboxBacklog(db)).pending;
    if (pending > 0 && turn % 40 === 0) console.error(`  still draining: ${pending} side effects pending`);
  }
  const drainSeconds = Math.round((performance.now() - started) / 100) / 10;
  const lags = (await sideEffectLagsMs(db, since)).sort((a, b) => a - b);
  const at = (q: number) => Math.round(lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0);
  return { pendingAtEnd, drainSeconds, lagMs: { p50: at(0.5), p99: at(0.99), max: at(1) } };
}
