import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { and, eq, gt, inArray, isNull, like, lt, lte, max, or } from "drizzle-orm";
import type { Db } from "../db.ts";
import { bets } from "../schema/bets.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";
import { players } from "../schema/players.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { roundReconciliations } from "../schema/round-reports.ts";
import { rounds } from "../schema/rounds.ts";
import { sideEffectFailures } from "../schema/side-effect-failures.ts";
import { sideEffectReceipts } from "../schema/side-effect-receipts.ts";
import { readUnknownBetMessage } from "../unknown-bet.ts";
import { type AcknowledgedCall, notHeldByRound } from "./acknowledged-not-held.ts";
import type { AtRiskCategory } from "./at-risk-line.ts";
import { byTenant, type RoundKey, roundKey, roundPlayers } from "./round-players.ts";

/**
 * Why a round may hold a line the platform was answered 200 for and the ledger lost. What shows a
 * loss (`lost`):
 * - `acknowledged_not_held`: the acknowledgement log (in Redis, which the failover did not touch)
 *   holds a callback answered 200 whose answer the ledger does not hold: the loss itself, line by
 *   line, whether or not the round left anything else;
 * - `mismatch`: closed after the point, and the close lists bets ours do not match
 *   (`platform_bet_not_found`: a lost BET, FREE_BET or WIN);
 * - `win_for_unknown_bet`: a WIN or FREE_BET_WIN refused (400) since the point for a bet the ledger
 *   does not know: the platform sends one only for a bet it was answered 200 for, so that BET was
 *   lost; the platform never resends a 4xx and never closes the round;
 * - `rollback_for_unknown_bet`: a ROLL_BACK since the point found no bet and left a tombstone (a lost
 *   BET, unless that BET never reached the wallet at all: the platform rolls back a bet it gave up on);
 * - `effects_without_close`: its CLOSE_ROUND is gone, but its side effects had already left for Redis
 *   (the relay publishes right after the commit) and arrived here since.
 * What only says to look (`check`):
 * - `open_at_point`: open when the data ends (a line or its close after it may be gone; a lost
 *   ROLL_BACK shows nowhere else: the close lists a voided bet as a lost one, which our unrefunded bet
 *   matches);
 * - `unclosed`: begun after the point and not closed (yet: under live traffic, rounds in play);
 * - `mismatch` with only bets of ours the close does not list: nothing the platform acknowledged is
 *   missing from what the close shows.
 */
export type RiskReason =
  | "acknowledged_not_held"
  | "mismatch"
  | "win_for_unknown_bet"
  | "rollback_for_unknown_bet"
  | "effects_without_close"
  | "open_at_point"
  | "unclosed";

export interface RoundAtRisk {
  tenantId: number;
  roundId: string;
  category: AtRiskCategory;
  /** The first finding's: a loss before a reason to look. */
  reason: RiskReason;
  /** Every finding, in words, the reason's first. */
  evidence: string[];
  /** Its players' `user_id`s, every one the ledger names (bets, loyalty awards, refused WINs); may be empty. */
  userIds: string[];
  /** Null for a round the ledger holds no row of. */
  createdAt: Date | null;
  closedAt: Date | null;
  /** Its callbacks answered 200 that the ledger does not hold (`acknowledged_not_held`), oldest first. */
  lostLines: AcknowledgedCall[];
}

interface Finding {
  reason: RiskReason;
  category: AtRiskCategory;
  text: string;
}

/** Which finding names the round: losses first, each kind in this order. */
const precedence: Array<[AtRiskCategory, RiskReason]> = [
  ["lost", "acknowledged_not_held"],
  ["lost", "mismatch"],
  ["lost", "win_for_unknown_bet"],
  ["lost", "rollback_for_unknown_bet"],
  ["lost", "effects_without_close"],
  ["check", "mismatch"],
  ["check", "open_at_point"],
  ["check", "unclosed"],
];
const rank = (finding: Finding) =>
  precedence.findIndex(([category, reason]) => category === finding.category && reason === finding.reason);

/**
 * The rounds to check against the platform's records after the ledger lost its newest commits (a
 * failover to a replica that was behind, a restore to a point in time): `point` is when the data
 * that survived ends. Each is `lost` when something in the ledger shows an acknowledged line missing,
 * else `check`. A round played wholly between the point and the failover leaves no trace here; the
 * acknowledgement log's lines the ledger lacks (`acknowledgedNotHeld`, read by the caller from Redis)
 * name it, else its unread round report (`pnpm side-effects lost-reports`), else only the platform's
 * history. The reads after the point scan their tables by time: a tool for an incident, not for every request.
 */
export async function roundsAtRisk(
  db: Db,
  input: { point: Date; acknowledgedNotHeld?: AcknowledgedCall[] },
): Promise<RoundAtRisk[]> {
  const { point } = input;
  const found = new Map<string, { round: RoundKey; findings: Finding[]; userIds: Set<string> }>();
  const note = (round: RoundKey, finding: Finding, ...userIds: Array<string | null | undefined>) => {
    const key = roundKey(round);
    const entry = found.get(key) ?? { round, findings: [], userIds: new Set<string>() };
    entry.findings.push(finding);
    for (const userId of userIds) if (typeof userId === "string") entry.userIds.add(userId);
    found.set(key, entry);
  };
  const lostLines = notHeldByRound(input.acknowledgedNotHeld ?? []);
  for (const { round, calls, text } of lostLines.values())
    note(
      round,
      { category: "lost", reason: "acknowledged_not_held", text },
      ...calls.map((call) => call.userId),
    );
  const held = new Map<string, { createdAt: Date; closedAt: Date | null }>();
  for (const row of await roundsInPlay(db, point)) {
    held.set(roundKey(row), row);
    for (const finding of row.findings) note(row, finding);
  }
  for (const refused of await winsForUnknownBets(db, point)) note(refused, refused.finding, refused.userId);
  for (const tombstone of await rollbacksForUnknownBets(db, point))
    note(tombstone, tombstone.finding, tombstone.userId);
  for (const round of await effectsWithoutClose(db, point)) note(round, round.finding);

  const unseen = [...found.values()]
    .map((entry) => entry.round)
    .filter((round) => !held.has(roundKey(round)));
  for (const row of await roundRows(db, unseen)) held.set(roundKey(row), row);
  const named = await roundPlayers(
    db,
    [...found.values()].map((entry) => entry.round),
  );
  const listed = [...found].map(([key, entry]): RoundAtRisk => {
    const findings = [...entry.findings].sort((a, b) => rank(a) - rank(b));
    const first = findings[0] as Finding;
    const row = held.get(key);
    return {
      ...entry.round,
      category: first.category,
      reason: first.reason,
      evidence: [...new Set(findings.map((finding) => finding.text))],
      userIds: [...new Set([...(named.get(key) ?? []), ...entry.userIds])].sort(),
      createdAt: row?.createdAt ?? null,
      closedAt: row?.closedAt ?? null,
      lostLines: lostLines.get(key)?.calls ?? [],
    };
  });
  return listed.sort(
    (a, b) =>
      Number(a.category === "check") - Number(b.category === "check") ||
      a.tenantId - b.tenantId ||
      (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0) ||
      (a.roundId < b.roundId ? -1 : a.roundId > b.roundId ? 1 : 0),
  );
}

/** Rounds open at the point, closed since with a mismatch, or begun since and unclosed. */
async function roundsInPlay(db: Db, point: Date) {
  const rows = await db
    .select({
      tenantId: rounds.tenantId,
      roundId: rounds.roundId,
      createdAt: rounds.createdAt,
      closedAt: rounds.closedAt,
      reconciliation: roundReconciliations.status,
      reconciledAt: roundReconciliations.createdAt,
      summary: roundReconciliations.summary,
      differences: roundReconciliations.differences,
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
  return rows.map((row) => {
    const findings: Finding[] = [];
    if (row.reconciliation === "mismatch" && row.reconciledAt !== null && row.reconciledAt > point) {
      const notFound = platformBetsNotFound(row.summary, row.differences ?? "[]");
      findings.push(
        notFound > 0
          ? {
              category: "lost",
              reason: "mismatch",
              text: `its close (reconciled ${row.reconciledAt.toISOString()}) lists ${notFound} bet(s) ours do not match (platform_bet_not_found): a lost BET, FREE_BET or WIN`,
            }
          : {
              category: "check",
              reason: "mismatch",
              text: "reconciled in mismatch, but only over bets of ours its close does not list",
            },
      );
    }
    if (row.createdAt <= point)
      findings.push({ category: "check", reason: "open_at_point", text: "open at the point the data ends" });
    else if (row.closedAt === null)
      findings.push({ category: "check", reason: "unclosed", text: "begun after the point and not closed" });
    return {
      tenantId: row.tenantId,
      roundId: row.roundId,
      createdAt: row.createdAt,
      closedAt: row.closedAt,
      findings,
    };
  });
}

/** How many of a close's bets matched none of ours: from the summary, or the listed differences of an older row. */
function platformBetsNotFound(summary: string | null, differences: string): number {
  try {
    if (summary !== null) {
      const counted = (JSON.parse(summary) as { platform_bet_not_found?: { count?: number } })
        .platform_bet_not_found?.count;
      return typeof counted === "number" ? counted : 0;
    }
    const listed = JSON.parse(differences) as Array<{ kind?: string }>;
    return listed.filter((difference) => difference.kind === "platform_bet_not_found").length;
  } catch {
    // An unreadable stored value shows no loss by itself; the round is still listed as a mismatch to check.
    return 0;
  }
}

/** WINs and FREE_BET_WINs refused since the point because their bet is unknown, by the round and player their message names. */
async function winsForUnknownBets(db: Db, point: Date) {
  const refused = await db
    .select({
      tenantId: idempotencyRecords.tenantId,
      providerTxId: idempotencyRecords.providerTxId,
      action: idempotencyRecords.action,
      response: idempotencyRecords.response,
      createdAt: idempotencyRecords.createdAt,
    })
    .from(idempotencyRecords)
    .where(
      and(
        gt(idempotencyRecords.createdAt, point),
        eq(idempotencyRecords.status, 400),
        inArray(idempotencyRecords.action, ["WIN", "FREE_BET_WIN"]),
      ),
    );
  return refused.flatMap((row) => {
    const named = readUnknownBetMessage(messageOf(row.response));
    if (!named) return [];
    const finding: Finding = {
      category: "lost",
      reason: "win_for_unknown_bet",
      text: `${row.action} ${row.providerTxId} of user ${named.userId} refused (400) at ${row.createdAt.toISOString()}: its bet ${named.betId} is unknown, a BET acknowledged and lost`,
    };
    return [{ tenantId: row.tenantId, roundId: named.roundId, userId: named.userId, finding }];
  });
}

function messageOf(response: string): string {
  try {
    const message = (JSON.parse(response) as { message?: unknown }).message;
    return typeof message === "string" ? message : "";
  } catch {
    return "";
  }
}

/** Tombstones written since the point: a ROLL_BACK that found no bet. */
async function rollbacksForUnknownBets(db: Db, point: Date) {
  const tombstones = await db
    .select({
      tenantId: bets.tenantId,
      roundId: bets.roundId,
      betId: bets.providerTxId,
      rollbackId: bets.rollbackProviderTxId,
      userId: players.userId,
      createdAt: bets.createdAt,
    })
    .from(bets)
    .innerJoin(players, eq(players.id, bets.playerId))
    .where(and(eq(bets.status, "tombstone"), gt(bets.createdAt, point)));
  return tombstones.map((row) => ({
    tenantId: row.tenantId,
    roundId: row.roundId,
    userId: row.userId,
    finding: {
      category: "lost",
      reason: "rollback_for_unknown_bet",
      text: `ROLL_BACK ${row.rollbackId ?? "?"} of user ${row.userId} at ${row.createdAt.toISOString()} found no bet ${row.betId}: a BET acknowledged and lost (or one that never reached the wallet)`,
    } satisfies Finding,
  }));
}

/** Rounds whose close's effects arrived after the point, and whose close the ledger does not hold. */
async function effectsWithoutClose(db: Db, point: Date) {
  const topics = new Map<string, { round: RoundKey; topics: Set<string> }>();
  const add = (round: RoundKey, topic: string) => {
    const entry = topics.get(roundKey(round)) ?? { round, topics: new Set<string>() };
    topics.set(roundKey(round), { ...entry, topics: entry.topics.add(topic) });
  };
  const failed = await db
    .selectDistinct({
      tenantId: sideEffectFailures.tenantId,
      roundId: sideEffectFailures.roundId,
      topic: sideEffectFailures.topic,
    })
    .from(sideEffectFailures)
    .where(gt(sideEffectFailures.firstFailedAt, point));
  for (const { topic, ...round } of failed) add(round, `${topic} failed`);
  // A receipt names its round only in its event id (`close-round:<tenant>:<round>`).
  const receipts = await db
    .selectDistinct({ eventId: sideEffectReceipts.eventId, topic: sideEffectReceipts.topic })
    .from(sideEffectReceipts)
    .where(and(gt(sideEffectReceipts.createdAt, point), like(sideEffectReceipts.eventId, "close-round:%")));
  for (const { eventId, topic } of receipts) {
    const [, tenant = "", ...roundParts] = eventId.split(":");
    const round = { tenantId: Number(tenant), roundId: roundParts.join(":") };
    if (Number.isSafeInteger(round.tenantId) && closeRoundEventId(round.tenantId, round.roundId) === eventId)
      add(round, `${topic} applied`);
  }
  const missing = new Set(
    (
      await roundsWithoutClose(
        db,
        [...topics.values()].map((entry) => entry.round),
      )
    ).map(roundKey),
  );
  return [...topics.values()]
    .filter((entry) => missing.has(roundKey(entry.round)))
    .map((entry) => ({
      ...entry.round,
      finding: {
        category: "lost",
        reason: "effects_without_close",
        text: `its close's side effects arrived since the point (${[...entry.topics].sort().join(", ")}), but the ledger holds no CLOSE_ROUND: the close was acknowledged and lost`,
      } satisfies Finding,
    }));
}

/** The ledger's rows of these rounds: when each began and closed. */
export async function roundRows(db: Db, named: RoundKey[]) {
  const found: Array<RoundKey & { createdAt: Date; closedAt: Date | null }> = [];
  for (const [tenantId, roundIds] of byTenant(named))
    for (let at = 0; at < roundIds.length; at += 500)
      found.push(
        ...(await db
          .select({
            tenantId: rounds.tenantId,
            roundId: rounds.roundId,
            createdAt: rounds.createdAt,
            closedAt: rounds.closedAt,
          })
          .from(rounds)
          .where(and(eq(rounds.tenantId, tenantId), inArray(rounds.roundId, roundIds.slice(at, at + 500))))),
      );
  return found;
}

/** Of these rounds, those the ledger holds no CLOSE_ROUND of. */
export async function roundsWithoutClose(db: Db, named: RoundKey[]): Promise<RoundKey[]> {
  const missing: RoundKey[] = [];
  for (const [tenantId, roundIds] of byTenant(named)) {
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
