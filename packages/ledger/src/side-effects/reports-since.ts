import { type RoundReport, roundReport } from "@wallet/contracts/side-effects";
import { and, asc, eq, gt, gte, or } from "drizzle-orm";
import type { Db } from "../db.ts";
import { roundReports } from "../schema/round-reports.ts";

/** Where a page of reports ended: the next page starts after it. */
export interface ReportCursor {
  createdAt: Date;
  tenantId: number;
  roundId: string;
}

/**
 * One page of stored round reports made at or after `since`, in the order they were made (then by
 * operator and round, so equal times never skip or repeat a report across pages), parsed against
 * the published schema. Reads the `round_reports_created` index: a page costs its own rows only.
 */
export async function reportsSince(
  db: Db,
  since: Date,
  after: ReportCursor | undefined,
  limit = 500,
): Promise<{ reports: RoundReport[]; next?: ReportCursor }> {
  const t = roundReports;
  const rows = await db
    .select({ createdAt: t.createdAt, tenantId: t.tenantId, roundId: t.roundId, report: t.report })
    .from(t)
    .where(
      after
        ? or(
            gt(t.createdAt, after.createdAt),
            and(
              eq(t.createdAt, after.createdAt),
              or(
                gt(t.tenantId, after.tenantId),
                and(eq(t.tenantId, after.tenantId), gt(t.roundId, after.roundId)),
              ),
            ),
          )
        : gte(t.createdAt, since),
    )
    .orderBy(asc(t.createdAt), asc(t.tenantId), asc(t.roundId))
    .limit(limit);
  const last = rows.at(-1);
  return {
    reports: rows.map((row) => roundReport.parse(JSON.parse(row.report))),
    next:
      rows.length === limit && last
        ? { createdAt: last.createdAt, tenantId: last.tenantId, roundId: last.roundId }
        : undefined,
  };
}
