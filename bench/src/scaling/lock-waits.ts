import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "@wallet/ledger/db";
import { round } from "../stats.ts";
import type { WindowDescription } from "./window.ts";

/**
 * Samples InnoDB's lock waits (who waits, on what statement, behind which transaction doing what)
 * every `everyMs`, so the row-lock waits of a window can be attributed. Its own queries are counted
 * so they can be taken out of the window's statement counts.
 */
export function lockWaitSampler(db: Db, everyMs = 100) {
  let running = true;
  let queries = 0;
  let samples = 0;
  let samplesWithWaits = 0;
  const pairs = new Map<string, number>();
  const shorten = (statement: string | null) =>
    statement === null || statement === ""
      ? "(idle in its transaction: between statements)"
      : statement.replace(/\s+/g, " ").replace(/`/g, "").slice(0, 60);
  const loop = (async () => {
    while (running) {
      queries += 1;
      const [rows] = (await db.execute(
        `SELECT r.trx_query AS waiting, b.trx_query AS blocking
         FROM information_schema.INNODB_LOCK_WAITS w
         JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id
         JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id`,
      )) as unknown as [Array<{ waiting: string | null; blocking: string | null }>];
      samples += 1;
      if (rows.length > 0) samplesWithWaits += 1;
      for (const row of rows) {
        const key = `${shorten(row.waiting)}  <-  ${shorten(row.blocking)}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
      await sleep(everyMs);
    }
  })();
  return {
    get queries() {
      return queries;
    },
    async stop() {
      running = false;
      await loop;
      return {
        samples,
        samplesWithWaits,
        waitsSeen: Object.fromEntries([...pairs].sort(([, a], [, b]) => b - a).slice(0, 8)),
      };
    },
  };
}

export type LockWaitSampler = ReturnType<typeof lockWaitSampler>;
export type LockWaits = Awaited<ReturnType<LockWaitSampler["stop"]>>;

/** Takes the lock-wait sampler's own SELECTs out of a window's statement counts. */
export function withoutSampler(window: WindowDescription, queries: number): WindowDescription {
  const per = window.callbacks > 0 ? window.callbacks : window.seconds;
  for (const key of ["Questions", "Com_select"]) {
    window.mysql[key] = round((window.mysql[key] ?? 0) - queries / per);
  }
  return window;
}
