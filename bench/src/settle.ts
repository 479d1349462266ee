import type { Db } from "@wallet/ledger/db";

/**
 * Waits (up to `limitMs`) until MariaDB has flushed its dirty pages, before a run's window opens:
 * otherwise a run that wrote much (the side-effect workload writes several times the redo of the
 * callbacks alone) has its page flushing charged to whichever side runs next.
 */
export async function settleDatabase(db: Db, limitMs = 30_000): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    const [rows] = (await db.execute(
      "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'",
    )) as unknown as [Array<{ Value: string }>];
    if (Number(rows[0]?.Value ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
