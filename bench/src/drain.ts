import type { Db } from "@wallet/ledger/db";
import { outboxBacklog, sideEffectLagsMs } from "@wallet/ledger/side-effects/outbox-queries";

/** Side-effect lag percentiles, in milliseconds. */
export interface Lag {
  p50: number;
  p99: number;
  max: number;
}

/**
 * Waits until every side effect owed so far is applied, so one run's backlog does not spend the
 * next run's CPU (the benchmark meters CPU until this returns). Returns the backlog seen when the
 * run ended and how long it took to drain.
 */
export async function drainSideEffects(
  db: Db,
  limitMs = 120_000,
): Promise<{ pendingAtEnd: number; drainSeconds: number }> {
  const started = performance.now();
  const { pending: pendingAtEnd } = await outboxBacklog(db);
  let pending = pendingAtEnd;
  for (let turn = 1; pending > 0 && performance.now() - started < limitMs; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    pending = (await outboxBacklog(db)).pending;
    if (pending > 0 && turn % 40 === 0) console.error(`  still draining: ${pending} side effects pending`);
  }
  return { pendingAtEnd, drainSeconds: Math.round((performance.now() - started) / 100) / 10 };
}

/**
 * The side-effect lag of the rounds closed since `since` (close committed → its last effect's
 * receipt). Read after the CPU meter stops: the query is the benchmark's, not the product's.
 */
export async function sideEffectLag(db: Db, since: Date): Promise<Lag> {
  const lags = (await sideEffectLagsMs(db, since)).sort((a, b) => a - b);
  const at = (q: number) => Math.round(lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}
