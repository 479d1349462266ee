import { and, asc, desc, gte, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { idempotencyRecords } from "../schema/idempotency-records.ts";

/**
 * A stretch with no stored answer between two that were: what a failover leaves in
 * `idempotency_records` (the old primary's last surviving answer, the seconds the address moved with
 * every callback answered 503, then the new primary's first answer).
 */
export interface Silence {
  /** The last answer before it. */
  from: Date;
  /** The first answer after it. */
  to: Date;
  /** The median gap between the answers stored around it, the traffic's own pace. */
  medianGapMs: number;
}

/** A silence counts when it is this long at least, and this many times the median gap around it. */
export const silenceRule = { minMs: 1_000, timesMedianGap: 10 };
/** How far before and after the given time silences are looked for. */
const horizonMs = 3_600_000;
/** Answers read on each side of a silence to measure the pace around it. */
const paceSample = 200;
const paceWindowMs = 60_000;
/** Candidate silences measured at most, on each side of the time: each costs two reads. */
const mostMeasured = 10;

/**
 * A failover time given too late: the silence a failover leaves lies wholly before it, and answers
 * the new primary stored follow. Then the newest answer before that time is one of the new primary's,
 * and every round that lost a line before it would go unlisted. Undefined when the time falls inside
 * a silence, when one follows it (an early time only lists more), or when none is found within an
 * hour before it. Judged against the traffic's own pace: at least `silenceRule.minMs` and
 * `silenceRule.timesMedianGap` times the median gap between the answers around it, so a quiet
 * moment of light traffic is no silence.
 */
export async function silenceBeforeLateTime(db: Db, failoverAt: Date): Promise<Silence | undefined> {
  const candidates = await gapsAround(db, failoverAt);
  const atOrAfter = candidates.filter((gap) => gap.to >= failoverAt).slice(0, mostMeasured);
  for (const gap of atOrAfter) if (await isSilence(db, gap)) return undefined;
  const before = candidates.filter((gap) => gap.to < failoverAt).reverse();
  for (const gap of before.slice(0, mostMeasured)) {
    const silence = await measured(db, gap);
    if (silence) return silence;
  }
  return undefined;
}

interface Gap {
  from: Date;
  to: Date;
}

/**
 * Every gap of at least `silenceRule.minMs` between two stored answers within the horizon, oldest
 * first, from one aggregate read: per whole second, the first and last answer in it. A gap of a
 * second or more always spans the boundary between two seconds that hold answers, so the gaps
 * between one second's last answer and the next busy second's first are all there are.
 */
async function gapsAround(db: Db, failoverAt: Date): Promise<Gap[]> {
  const from = new Date(failoverAt.getTime() - horizonMs);
  const until = new Date(failoverAt.getTime() + horizonMs);
  const second = sql<number>`TIMESTAMPDIFF(SECOND, ${from}, ${idempotencyRecords.createdAt})`;
  const seconds = await db
    .select({
      second,
      first: sql`MIN(${idempotencyRecords.createdAt})`.mapWith(idempotencyRecords.createdAt),
      last: sql`MAX(${idempotencyRecords.createdAt})`.mapWith(idempotencyRecords.createdAt),
    })
    .from(idempotencyRecords)
    .where(and(gte(idempotencyRecords.createdAt, from), lt(idempotencyRecords.createdAt, until)))
    .groupBy(second)
    .orderBy(second);
  const gaps: Gap[] = [];
  for (let at = 1; at < seconds.length; at++) {
    const previous = seconds[at - 1]?.last;
    const next = seconds[at]?.first;
    if (previous && next && next.getTime() - previous.getTime() >= silenceRule.minMs)
      gaps.push({ from: previous, to: next });
  }
  return gaps;
}

async function isSilence(db: Db, gap: Gap): Promise<boolean> {
  return (await measured(db, gap)) !== undefined;
}

/** The gap with the pace around it, if it is long for that pace; undefined if not, or if too few answers surround it to tell. */
async function measured(db: Db, gap: Gap): Promise<Silence | undefined> {
  const column = idempotencyRecords.createdAt;
  const [before, after] = await Promise.all([
    db
      .select({ at: column })
      .from(idempotencyRecords)
      .where(and(gte(column, new Date(gap.from.getTime() - paceWindowMs)), lte(column, gap.from)))
      .orderBy(desc(column))
      .limit(paceSample),
    db
      .select({ at: column })
      .from(idempotencyRecords)
      .where(and(gte(column, gap.to), lte(column, new Date(gap.to.getTime() + paceWindowMs))))
      .orderBy(asc(column))
      .limit(paceSample),
  ]);
  const gaps = [
    ...inner(before.map((row) => row.at.getTime()).reverse()),
    ...inner(after.map((row) => row.at.getTime())),
  ];
  if (gaps.length < 10) return undefined;
  gaps.sort((a, b) => a - b);
  const medianGapMs = gaps[Math.floor(gaps.length / 2)] ?? 0;
  const length = gap.to.getTime() - gap.from.getTime();
  return length >= silenceRule.minMs && length >= silenceRule.timesMedianGap * medianGapMs
    ? { ...gap, medianGapMs }
    : undefined;
}

/** The gaps between consecutive times, in order. */
function inner(times: number[]): number[] {
  return times.slice(1).map((time, at) => time - (times[at] ?? time));
}
