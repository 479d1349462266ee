/**
 * How long a read made while Prometheus waits for /metrics may take. Below any scrape timeout
 * (Prometheus's default is 10 s; the observability suite scrapes every second): a read that hangs
 * (ioredis queues commands while Redis is down and BullMQ's clients never give up on one) must not
 * hold the scrape, or every series of the process goes missing, `wallet_dependency_up` included,
 * and the alert that names the dependency cannot fire.
 */
export const SCRAPE_READ_TIMEOUT_MS = 500;

/** A dependency check (SELECT 1, Redis TIME) that has not answered in this long counts as failed. */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 2_000;

export class ReadTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "ReadTimeout";
  }
}

/** `read()`, or a ReadTimeout after `ms`; the read itself goes on (it cannot be cancelled) and is ignored. */
export function bounded<T>(read: Promise<T>, ms: number, what = "read"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReadTimeout(what, ms)), ms);
  });
  read.catch(() => {});
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
}

/** A scrape-time probe that gives up after SCRAPE_READ_TIMEOUT_MS (the gauge then keeps its last value). */
export function scrapeProbe<T>(read: () => Promise<T>, what: string): () => Promise<T> {
  return () => bounded(read(), SCRAPE_READ_TIMEOUT_MS, what);
}
