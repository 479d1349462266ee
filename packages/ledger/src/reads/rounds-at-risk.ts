import { and, eq, gt, isNull, lt, lte, max, or } from "drizzle-orm";
import type { Db } from "../db.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { roundReconciliations } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";

/**
 * Why a round may hold a line the platform was answered 200 for and the ledger lost:
 * - `open_at_point`: it was open at the point the data ends (a line or its close after it may be
 *   gone; a lost ROLL_BACK shows nowhere else: the close lists a voided bet as a lost one, which our
 *   unrefunded bet matches);
 * - `mismatch`: closed after the point, and the close disagrees with our bets (a lost BET, FREE_BET
 *   or WIN: `platform_bet_not_found`);
 * - `unclosed`: begun after the point and not closed (the platform closes a round only once every
 *   line was acknowledged; a WIN refused for a lost BET leaves it open for good).
 */
export type RiskReason = "open_at_point" | "mismatch" | "unclosed";

export interface RoundAtRisk {
  tenantId: number;
  roundId: string;
  reason: RiskReason;
  createdAt: Date;
  closedAt: Date | null;
}

/**
 * The rounds to check against the platform's records after the ledger lost its newest commits (a
 * failover to a replica that was behind, a restore to a point in time): `point` is when the data
 * that survived ends. A round played wholly between the point and the failover leaves no trace here;
 * only the platform's history of that window shows it (`docs/runbook.md`).
 */
export async function roundsAtRisk(db: Db, input: { point: Date }): Promise<RoundAtRisk[]> {
  const { point } = input;
  const rows = await db
    .select({
      tenantId: rounds.tenantId,
      roundId: rounds.roundId,
      createdAt: rounds.createdAt,
      closedAt: rounds.closedAt,
      reconciliation: roundReconciliations.status,
      reconciledAt: roundReconciliations.createdAt,
    })
    .from(rounds)
    .leftJoin(
      roundReconciliations,
      and(
        eq(roundReconciliations.tenantId, rounds.tenantId),
        eq(roundReconciliations.roundId, rounds.roundId),
      ),
    )
    .where(
      or(
        and(lte(rounds.createdAt, point), or(isNull(rounds.closedAt), gt(rounds.closedAt, point))),
        and(eq(roundReconciliations.status, "mismatch"), gt(roundReconciliations.createdAt, point)),
        and(gt(rounds.createdAt, point), isNull(rounds.closedAt)),
      ),
    );
  return rows.map((row) => ({
    tenantId: row.tenantId,
    roundId: row.roundId,
    reason:
      row.reconciliation === "mismatch" && row.reconciledAt !== null && row.reconciledAt > point
        ? "mismatch"
        : row.createdAt <= point
          ? "open_at_point"
          : "unclosed",
    createdAt: row.createdAt,
    closedAt: row.closedAt,
  }));
}

/**
 * Where the surviving data ends, for a failover at `failoverAt`: the newest answer stored before it
 * (every acknowledged callback stores one in the transaction that applies it). Undefined for an
 * empty ledger.
 */
export async function dataEndsBefore(db: Db, failoverAt: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ newest: max(idempotencyRecords.createdAt) })
    .from(idempotencyRecords)
    .where(lt(idempotencyRecords.createdAt, failoverAt));
  return row?.newest ?? undefined;
}
