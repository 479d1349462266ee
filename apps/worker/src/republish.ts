import type { Db } from "@wallet/ledger/db";
import {
  type ReportCursor,
  reportsSince,
  type UnreadableReport,
} from "@wallet/ledger/side-effects/reports-since";
import type { ReportingQueue } from "@wallet/queue/reporting-queue";

/**
 * Puts every stored round report made since `since` back on the reporting queue, a page at a time
 * (one bulk add per page). A report whose job still waits is not added twice (its job id is its
 * event id); one the consumer already took arrives again, which its event id lets it ignore. A
 * stored row that reads as no report is skipped and returned, and the pages after it still go out.
 */
export async function republishReports(
  db: Db,
  reporting: ReportingQueue,
  since: Date,
): Promise<{ published: number; unreadable: UnreadableReport[] }> {
  let published = 0;
  const unreadable: UnreadableReport[] = [];
  let after: ReportCursor | undefined;
  do {
    const page = await reportsSince(db, since, after);
    await reporting.publish(page.reports);
    published += page.reports.length;
    unreadable.push(...page.unreadable);
    after = page.next;
  } while (after);
  return { published, unreadable };
}
