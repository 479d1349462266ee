import { type RoundReport, readRoundReport } from "@wallet/contracts/side-effects";
import { and, asc, eq, gt, gte, min, or } from "drizzle-orm";
import type { Db } from "../db.ts";
import { roundReports } from "../schema/round-reports.ts";

/** Where a page of reports ended: the next page starts after it. */
export interface ReportCursor {
  createdAt: Date;
  tenantId: number;
  roundId: string;
}

/** A stored report that is not a report of any version (a row edited by hand, say): skipped, named. */
export interface UnreadableReport {
  tenantId: number;
  roundId: string;
  problem: string;
}

/**
 * One page of stored round reports made at or after `since`, in the order they were made (then by
 * operator and round, so equal times never skip or repeat a report across pages), read as the
 * published schema's current version (`readRoundReport`: a version 1 row is upgraded). A row that
 * reads as no report is returned apart (`unreadable`), never thrown: one bad row must not stop the
 * republish of every report after it. Reads the `round_reports_created` index: a page costs its own rows only.
 */
export async function reportsSince(
  db: Db,
  since: Date,
  after: ReportCursor | undefined,
  limit = 500,
): Promise<{ reports: RoundReport[]; unreadable: UnreadableReport[]; next?: ReportCursor }> {
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
  const reports: RoundReport[] = [];
  const unreadable: UnreadableReport[] = [];
  for (const row of rows) {
    try {
      reports.push(readRoundReport(JSON.parse(row.report)));
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      unreadable.push({ tenantId: row.tenantId, roundId: row.roundId, problem: problem.slice(0, 300) });
    }
  }
  return {
    reports,
    unreadable,
    next:
      rows.length === limit && last
        ? { createdAt: last.createdAt, tenantId: last.tenantId, roundId: last.roundId }
        : undefined,
  };
}

/**
 * When the earliest of these rounds' stored reports was made (`created_at`, the clock and column
 * `reportsSince` reads), or undefined if none is stored: `republish --since` that time restores every
 * one of them, a revised report included (its row holds its newest revision, made later still).
 * In statements of at most `chunk` rounds.
 */
export async function earliestStoredReport(
  db: Db,
  rounds: Array<{ tenantId: number; roundId: string }>,
  chunk = 500,
): Promise<Date | undefined> {
  const t = roundReports;
  let earliest: Date | undefined;
  for (let start = 0; start < rounds.length; start += chunk) {
    const pairs = rounds.slice(start, start + chunk);
    const [row] = await db
      .select({ at: min(t.createdAt) })
      .from(t)
      .where(or(...pairs.map((pair) => and(eq(t.tenantId, pair.tenantId), eq(t.roundId, pair.roundId)))));
    if (row?.at && (!earliest || row.at < earliest)) earliest = row.at;
  }
  return earliest;
}
