import { type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import { and, asc, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { pruneBudgetBytes } from "../retention/expired-chunk.ts";
import { everyTopic, outbox } from "../schema/outbox.ts";
import { withTransaction } from "../transaction.ts";

/**
 * The most outbox rows one relay turn claims (the worker's `OUTBOX_RELAY_BATCH` is at most this): the
 * rounds of one side-effect job, what the size budgets (`portability/size-budgets.ts`) count on.
 */
export const maxRelayBatch = 5_000;
/**
 * The most rows one retention DELETE takes (the worker's `OUTBOX_PRUNE_CHUNK` is at most this); the
 * operator's records are chunked by bytes as well (`retention/expired-chunk.ts`), the outbox below.
 */
export const maxPruneChunk = 10_000;

/**
 * The most an outbox row stores: its ids (a round id, a key and a game of up to 128 characters,
 * JSON-escaped in its payload), numbers and times. `size-budgets.test.ts` holds the schema's bound
 * of a row to it.
 */
export const outboxRowMaxBytes = 8 * 1024;

/**
 * Rows one outbox retention DELETE takes: `chunk` (OUTBOX_PRUNE_CHUNK), at most `pruneBudgetBytes`
 * (8 MiB) of rows of `outboxRowMaxBytes`: 1,024. At its maximum of 10,000 a chunk was 55 MiB of row
 * images (a DELETE's binary-log event carries each row whole), over half of TiDB's 100 MiB
 * transaction limit (issue 42). By rows, not by measuring them: the outbox's rows are small and
 * bounded, and its DELETE stays one statement on its index.
 */
export const outboxPruneRows = (chunk: number) =>
  Math.max(1, Math.min(chunk, Math.floor(pruneBudgetBytes / outboxRowMaxBytes)));

/** One side effect to publish: an outbox row's id, one topic it owes, its event. */
export interface OutboxRow {
  id: number;
  tenantId: number;
  topic: SideEffectTopic;
  eventId: string;
  payload: string;
}

/** An outbox row whose topic this version does not know, as the relay claimed it. */
export interface UnknownTopicRow {
  id: number;
  topic: string;
  eventId: string;
}

/** An outbox row as a claim hands it over: one row, whatever topics it owes. */
export interface ClaimedOutboxRow {
  id: number;
  tenantId: number;
  topic: string;
  eventId: string;
  payload: string;
}

/**
 * Claims a batch of unpublished outbox rows (marks them published) and commits, then hands their
 * effects to `publish` (a row of topic `all` as one effect per topic), which may deliver an effect
 * twice (consumers keep receipts) but never lose one. Returns the rows claimed. No row lock is held while
 * Redis is called, so a consumer marking a row applied never waits on the relay. Relays running side
 * by side skip each other's rows (SKIP LOCKED) where the server locks them: MySQL 8.4 and MariaDB.
 * TiDB takes the clause and locks nothing (docs/databases.md): there two relays can claim and publish
 * the same rows, and each effect is still applied once, by its receipt (`outbox-double-claim.int.test.ts`
 * in apps/worker publishes two claims of the same rows). If `publish` fails the claim is given back at once;
 * if the process dies between the commit and the publish, the rows look published but have no job,
 * and the sweep (`requeueUnapplied`) hands them back once they are old enough: late, never lost.
 * Rows of a topic this version does not know are published nowhere and handed to `unknownTopic`
 * once the rest are published (the caller counts and alerts on them).
 */
export async function relayOutbox(
  db: Db,
  publish: (rows: OutboxRow[]) => Promise<void>,
  limit = 500,
  unknownTopic: (rows: UnknownTopicRow[]) => void = () => {},
): Promise<number> {
  return publishClaimed(db, await claimOutbox(db, limit), publish, unknownTopic);
}

/** The claim: unpublished rows, oldest first, marked published in one short transaction. */
export async function claimOutbox(db: Db, limit: number): Promise<ClaimedOutboxRow[]> {
  return withTransaction(db, async (tx) => {
    const claimed = await tx
      .select({
        id: outbox.id,
        tenantId: outbox.tenantId,
        topic: outbox.topic,
        eventId: outbox.eventId,
        payload: outbox.payload,
      })
      .from(outbox)
      .where(isNull(outbox.publishedAt))
      // By id, the index `outbox_unpublished` (published_at, id) read in order. Not by age on TiDB
      // (each TiDB server takes AUTO_INCREMENT ids in batches of its own), but no row starves: a
      // claim takes the lowest unclaimed ids and they leave the unpublished set, and what can still
      // come in below a row is finite: the ids left in batches handed out before its own, and rows
      // the sweep hands back, each until it is applied or dead (a bounded number of attempts).
      .orderBy(asc(outbox.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (claimed.length > 0)
      await tx
        .update(outbox)
        .set({ publishedAt: sql`CURRENT_TIMESTAMP(3)` })
        .where(inArray(outbox.id, ids(claimed)));
    return claimed;
  });
}

/**
 * Hands a claim's effects to `publish` (a row of topic `all` as one effect per topic); if that fails,
 * gives the claim back (rows not applied yet are unpublished again) and throws. Returns the rows.
 */
export async function publishClaimed(
  db: Db,
  rows: ClaimedOutboxRow[],
  publish: (rows: OutboxRow[]) => Promise<void>,
  unknownTopic: (rows: UnknownTopicRow[]) => void = () => {},
): Promise<number> {
  if (rows.length === 0) return 0;
  // A topic this version does not know (written by a newer one, or by hand) is left unapplied, in
  // sight of the backlog gauge, instead of failing the whole batch on every turn; the sweep hands it
  // back, so it is claimed (and reported) again at each sweep until a version that knows it runs.
  const unknown = rows.filter((row) => row.topic !== everyTopic && !isTopic(row.topic));
  try {
    await publish(
      rows.flatMap((row): OutboxRow[] => {
        if (row.topic === everyTopic) return sideEffectTopics.map((topic) => ({ ...row, topic }));
        return isTopic(row.topic) ? [{ ...row, topic: row.topic }] : [];
      }),
    );
  } catch (error) {
    await db
      .update(outbox)
      .set({ publishedAt: null })
      .where(and(inArray(outbox.id, ids(rows)), isNull(outbox.appliedAt)))
      .catch(() => {}); // the sweep gives them back later if even this fails
    throw error;
  }
  if (unknown.length > 0)
    unknownTopic(unknown.map(({ id, topic, eventId }) => ({ id, topic: String(topic), eventId })));
  return rows.length;
}

const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);

/**
 * Marks applied the published rows whose every effect has its receipt (a row of topic `all` needs
 * the four, a row of one topic its one): three short statements for up to `limit` rows, none in a
 * transaction (each is idempotent). The relay runs it each turn; until it has, a fully applied row
 * still counts in the backlog, for at most a turn. Dead rows are left out: they wait for a person
 * (`retry --dead` makes them live again), and, the oldest published rows, 1,000 of them filled
 * every turn's read, so no newer row was ever marked and the sweep redelivered it for good
 * (issue 39). The index `outbox_applied_dead` (applied_at, dead_at, published_at, …) hands over
 * the live rows alone, oldest first, however many dead ones there are.
 */
export async function markApplied(db: Db, limit = 1_000): Promise<number> {
  const [pending] = (await db.execute(sql`
    SELECT id, topic, event_id FROM outbox
    WHERE applied_at IS NULL AND dead_at IS NULL AND published_at IS NOT NULL
    ORDER BY published_at LIMIT ${limit}`)) as unknown as [
    Array<{ id: number; topic: string; event_id: string }>,
  ];
  if (pending.length === 0) return 0;
  const [receipts] = (await db.execute(sql`
    SELECT topic, event_id FROM side_effect_receipts
    WHERE topic IN (${sql.join(
      sideEffectTopics.map((topic) => sql`${topic}`),
      sql`, `,
    )}) AND event_id IN (${sql.join(
      [...new Set(pending.map((row) => row.event_id))].map((eventId) => sql`${eventId}`),
      sql`, `,
    )})`)) as unknown as [Array<{ topic: string; event_id: string }>];
  const have = new Set(receipts.map((receipt) => `${receipt.topic}\n${receipt.event_id}`));
  const owes = (row: { topic: string }) => (row.topic === everyTopic ? sideEffectTopics : [row.topic]);
  const done = pending.filter((row) => owes(row).every((topic) => have.has(`${topic}\n${row.event_id}`)));
  if (done.length === 0) return 0;
  await db
    .update(outbox)
    .set({ appliedAt: sql`CURRENT_TIMESTAMP(3)` })
    .where(inArray(outbox.id, ids(done)));
  return done.length;
}

/**
 * Rows published over `olderThanSeconds` ago whose effect was never applied: the job was lost
 * (Redis lost its data, say), or an effect failed (each sweep is then one more attempt). They are
 * marked unpublished again so the relay republishes them; a row whose effect is dead
 * (`dead-letters.ts`) is left alone until someone retries it. The longest published first, in the
 * index's own order (`outbox_applied_dead`: no sort): a row handed back is published anew and goes
 * behind every other, so no row waits on rows that keep failing. By id (before issue 42) 500 failing
 * rows of lower ids, due again at every sweep, kept a higher one waiting until they died; and ids are
 * not in time order on TiDB.
 */
export async function requeueUnapplied(db: Db, olderThanSeconds: number, limit = 500): Promise<number> {
  const [result] = await db.execute(sql`
    UPDATE outbox SET published_at = NULL
    WHERE applied_at IS NULL AND dead_at IS NULL
      AND published_at < CURRENT_TIMESTAMP(3) - INTERVAL ${olderThanSeconds} SECOND
    ORDER BY published_at LIMIT ${limit}`);
  return (result as unknown as { affectedRows: number }).affectedRows;
}

/**
 * Deletes applied rows older than `olderThanSeconds`, oldest first, at most `outboxPruneRows(chunk)`
 * of them in one short statement of its own (so no lock is held for long; the caller loops while a
 * chunk comes back full, that many rows). The effects themselves, their receipts, the journal and the bets are the audit trail
 * and are never touched; an applied outbox row only told the relay and the sweep what was left to do.
 * A dead row is never applied, so never pruned: it is the effect still owed (`retry --dead`).
 */
export async function pruneAppliedOutbox(db: Db, olderThanSeconds: number, chunk = 500): Promise<number> {
  const [result] = await db.execute(sql`
    DELETE FROM outbox
    WHERE applied_at < CURRENT_TIMESTAMP(3) - INTERVAL ${olderThanSeconds} SECOND
    ORDER BY applied_at LIMIT ${outboxPruneRows(chunk)}`);
  return (result as unknown as { affectedRows: number }).affectedRows;
}

/**
 * Outbox backlog for monitoring: rows not yet applied and the age of the oldest, in seconds. Rows
 * whose effect is dead are not waiting on anything but a person: they are counted apart
 * (`deadSideEffects`) and alerted on apart.
 */
export async function outboxBacklog(db: Db): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [rows] = (await db.execute(sql`
    SELECT COUNT(*) AS pending,
           COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(created_at), CURRENT_TIMESTAMP(3)) / 1000000, 0) AS oldest
    FROM outbox WHERE applied_at IS NULL AND dead_at IS NULL`)) as unknown as [
    Array<{ pending: string | number; oldest: string | number }>,
  ];
  return { pending: Number(rows[0]?.pending ?? 0), oldestAgeSeconds: Number(rows[0]?.oldest ?? 0) };
}

/**
 * For the benchmark: each round closed since `since` whose four effects are all applied, the time
 * from its close's commit to its last effect's receipt, in milliseconds. One receipt join per topic,
 * each on the receipts' primary key (not for production: it scans the outbox since `since`).
 */
export async function sideEffectLagsMs(db: Db, since: Date): Promise<number[]> {
  const receipt = (alias: string, topic: string) =>
    sql.raw(
      `JOIN side_effect_receipts ${alias} ON ${alias}.topic = '${topic}' AND ${alias}.event_id = o.event_id`,
    );
  // `lag_ms`, not `lag`: LAG is reserved since MySQL 8.0.2 and in TiDB (window functions), where
  // `AS lag` is a syntax error (1064); MariaDB alone accepts it.
  const [rows] = (await db.execute(sql`
    SELECT TIMESTAMPDIFF(MICROSECOND, o.created_at,
             GREATEST(r0.created_at, r1.created_at, r2.created_at, r3.created_at)) / 1000 AS lag_ms
    FROM outbox o ${sql.join(
      sideEffectTopics.map((topic, index) => receipt(`r${index}`, topic)),
      sql` `,
    )}
    WHERE o.topic = ${everyTopic} AND o.created_at >= ${since}`)) as unknown as [
    Array<{ lag_ms: string | number }>,
  ];
  return rows.map((row) => Number(row.lag_ms));
}

const isTopic = (topic: string): topic is SideEffectTopic =>
  (sideEffectTopics as readonly string[]).includes(topic);
