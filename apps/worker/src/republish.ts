import type { Db } from "@wallet/ledger/db";
import { type ReportCursor, reportsSince } from "@wallet/ledger/side-effects/reports-since";
import type { ReportingQueue } from "@wallet/queue/reporting-queue";

/**
 * Puts every stored round report made since `since` back on the reporting queue, a page at a time
 * (one bulk add per page). A report whose job still waits is not added twice (its job id is its
 * event id); one the consumer already took arrives again, which its event id lets it ignore.
 */
export async function republishReports(db: Db, reporting: ReportingQueue, since: Date): Promise<number> {
  let published = 0;
  let after: ReportCursor | undefined;
  do {
    const page = await reportsSince(db, since, after);
    await reporting.publish(page.reports);
    published += page.reports.length;
    after = page.next;
  } while (after);
  return published;
}
