import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";

const lostLock = /could not renew lock for job ([^\s"\\]+)/;

/**
 * The jobs whose lock the worker could not renew (BullMQ's "could not renew lock for job <id>": its
 * event loop, or its side-effect thread's, was held past the lock), from the worker's log lines
 * written from `from` to before `to` (ms since the epoch). `wallet_jobs_stalled_total` does not always count them:
 * a job that finishes after losing its lock fails to move ("Missing lock") and runs again.
 */
export function locksLost(worker: AppProcess, from: number, to: number): string[] {
  const jobs: string[] = [];
  for (const line of worker.logs) {
    const job = lostLock.exec(line)?.[1];
    if (!job) continue;
    const time = Number(/"time":(\d+)/.exec(line)?.[1] ?? 0);
    if (time >= from && time < to) jobs.push(job);
  }
  return jobs;
}

/** Jobs that lost their lock more than once over a run: each time, the job is taken back and runs again. */
export function jobsLosingLockTwice(lostLocks: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const job of lostLocks) counts[job] = (counts[job] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 1));
}
