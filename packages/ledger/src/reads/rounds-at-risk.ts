import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { and, eq, gt, inArray, isNull, like, lt, lte, max, or } from "drizzle-orm";
import type { Db } from "../db.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { roundReconciliations } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectFailures } from "../schema/side-effect-failures.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";

/**
 * Why a round may hold a line the platform was answered 200 for and the ledger lost:
 * - `open_at_point`: it was open at the point the data ends (a line or its close after it may be
 *   gone; a lost ROLL_BACK shows nowhere else: the close lists a voided bet as a lost one, which our
 *   unrefunded bet matches);
 * - `mismatch`: closed after the point, and the close disagrees with our bets (a lost BET, FREE_BET
 *   or WIN: `platform_bet_not_found`);
 * - `unclosed`: begun after the point and not closed (the platform closes a round only once every
 *   line was acknowledged; a WIN refused for a lost BET leaves it open for good);
 * - `effects_without_close`: its CLOSE_ROUND is gone, but its side effects had already left for Redis
 *   (the relay publishes right after the commit) and arrived here since: receipts of effects applied
 *   from the events' own summaries, or failures of those that read the stored close (reporting). Often
 *   the only trace of a round played wholly after the point.
 */
export type RiskReason = "open_at_point" | "mismatch" | "unclosed" | "effects_without_close";

export interface RoundAtRisk {
  tenantId: number;
  roundId: string;
  reason: RiskReason;
  /** Null for a round the ledger holds no row of (`effects_without_close`). */
  createdAt: Date | null;
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
  const listed = rows.map(
    (row): RoundAtRisk => ({
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
    }),
  );
  const seen = new Set(listed.map((round) => `${round.tenantId}:${round.roundId}`));
  for (const round of await effectsWithoutClose(db, point))
    if (!seen.has(`${round.tenantId}:${round.roundId}`)) listed.push(round);
  return listed;
}

/** Rounds whose close's effects arrived after the point, and whose close the ledger does not hold. */
async function effectsWithoutClose(db: Db, point: Date): Promise<RoundAtRisk[]> {
  const named = new Map<string, { tenantId: number; roundId: string }>();
  const failed = await db
    .selectDistinct({ tenantId: sideEffectFailures.tenantId, roundId: sideEffectFailures.roundId })
    .from(sideEffectFailures)
    .where(gt(sideEffectFailures.firstFailedAt, point));
  for (const round of failed) named.set(`${round.tenantId}:${round.roundId}`, round);
  // A receipt names its round only in its event id (`close-round:<tenant>:<round>`); the scan is of
  // the receipts written since the point, a tool for an incident, not for every request.
  const receipts = await db
    .selectDistinct({ eventId: sideEffectReceipts.eventId })
    .from(sideEffectReceipts)
    .where(and(gt(sideEffectReceipts.createdAt, point), like(sideEffectReceipts.eventId, "close-round:%")));
  for (const { eventId } of receipts) {
    const [, tenant = "", ...roundParts] = eventId.split(":");
    const round = { tenantId: Number(tenant), roundId: roundParts.join(":") };
    if (Number.isSafeInteger(round.tenantId) && closeRoundEventId(round.tenantId, round.roundId) === eventId)
      named.set(`${round.tenantId}:${round.roundId}`, round);
  }
  return (await roundsWithoutClose(db, [...named.values()])).map((round) => ({
    ...round,
    reason: "effects_without_close" as const,
    createdAt: null,
    closedAt: null,
  }));
}

/** Of these rounds, those the ledger holds no CLOSE_ROUND of. */
export async function roundsWithoutClose(
  db: Db,
  named: Array<{ tenantId: number; roundId: string }>,
): Promise<Array<{ tenantId: number; roundId: string }>> {
  const missing: Array<{ tenantId: number; roundId: string }> = [];
  for (const tenantId of new Set(named.map((round) => round.tenantId))) {
    const roundIds = [...new Set(named.filter((round) => round.tenantId === tenantId).map((r) => r.roundId))];
    const closed = new Set<string>();
    for (let at = 0; at < roundIds.length; at += 500) {
      const found = await db
        .select({ roundId: roundCloses.roundId })
        .from(roundCloses)
        .where(
          and(eq(roundCloses.tenantId, tenantId), inArray(roundCloses.roundId, roundIds.slice(at, at + 500))),
        );
      for (const { roundId } of found) closed.add(roundId);
    }
    for (const roundId of roundIds) if (!closed.has(roundId)) missing.push({ tenantId, roundId });
  }
  return missing;
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
