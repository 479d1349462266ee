import { and, count, eq, gte } from "drizzle-orm";
import type { Db } from "../db.ts";
import { roundReconciliations } from "../schema/round-reports.ts";

/** How an operator's rounds reconciled since a moment: rounds matched, rounds in mismatch. */
export async function reconciliationOutcomes(
  db: Db,
  input: { tenantId: number; since: Date },
): Promise<{ matched: number; mismatch: number }> {
  const rows = await db
    .select({ status: roundReconciliations.status, rounds: count() })
    .from(roundReconciliations)
    .where(
      and(
        eq(roundReconciliations.tenantId, input.tenantId),
        gte(roundReconciliations.createdAt, input.since),
      ),
    )
    .groupBy(roundReconciliations.status);
  const of = (status: string) => rows.find((row) => row.status === status)?.rounds ?? 0;
  return { matched: of("matched"), mismatch: of("mismatch") };
}
