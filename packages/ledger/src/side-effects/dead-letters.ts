import type { SideEffectTopic } from "@wallet/contracts/side-effects";
import { sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { withTransaction } from "../transaction.ts";

type Rows<T> = [T[]];

/** The longest error text kept: enough for a message and the start of its cause. */
const ERROR_TEXT_MAX = 1000;

/**
 * Counts one failure of one effect applied on its own (`side_effect_failures`). At `maxAttempts`
 * the effect is dead: its outbox row is marked so the sweep stops republishing it. Each attempt is
 * a sweep apart (`OUTBOX_SWEEP_AGE_SECONDS`), so a failure that is really an outage of a few
 * minutes does not kill an effect; one that fails the same way every time stops after a few.
 */
export async function recordSideEffectFailure(
  db: Db,
  input: {
    topic: SideEffectTopic;
    event: { eventId: string; tenantId: number; roundId: string };
    error: string;
    maxAttempts: number;
  },
): Promise<{ attempts: number; dead: boolean }> {
  const { topic, event } = input;
  const error = input.error.slice(0, ERROR_TEXT_MAX);
  return withTransaction(db, async (tx) => {
    // An effect applied meanwhile (a job that stalled after its commit, say) has nothing to count.
    const [applied] = (await tx.execute(sql`
      SELECT 1 AS applied FROM side_effect_receipts
      WHERE topic = ${topic} AND event_id = ${event.eventId}`)) as unknown as Rows<{ applied: number }>;
    if (applied.length > 0) return { attempts: 0, dead: false };
    // dead_at first: the assignments of ON DUPLICATE KEY UPDATE see the ones before them.
    await tx.execute(sql`
      INSERT INTO side_effect_failures
        (event_id, topic, tenant_id, round_id, attempts, last_error, first_failed_at, last_failed_at, dead_at)
      VALUES (${event.eventId}, ${topic}, ${event.tenantId}, ${event.roundId}, 1, ${error},
              CURRENT_TIMESTAMP(3), CURRENT_TIMESTAMP(3), IF(1 >= ${input.maxAttempts}, CURRENT_TIMESTAMP(3), NULL))
      ON DUPLICATE KEY UPDATE
        dead_at = IF(attempts + 1 >= ${input.maxAttempts}, COALESCE(dead_at, CURRENT_TIMESTAMP(3)), dead_at),
        attempts = attempts + 1, last_error = VALUES(last_error), last_failed_at = CURRENT_TIMESTAMP(3)`);
    const [rows] = (await tx.execute(sql`
      SELECT attempts, dead_at FROM side_effect_failures
      WHERE event_id = ${event.eventId} AND topic = ${topic}`)) as unknown as Rows<{
      attempts: number;
      dead_at: Date | null;
    }>;
    const dead = rows[0]?.dead_at != null;
    if (dead)
      await tx.execute(sql`
        UPDATE outbox SET dead_at = CURRENT_TIMESTAMP(3)
        WHERE event_id = ${event.eventId} AND applied_at IS NULL AND dead_at IS NULL`);
    return { attempts: Number(rows[0]?.attempts ?? 0), dead };
  });
}

/** Dead effects not applied since (a delivery after the fix may have applied one), by topic. */
export async function deadSideEffects(db: Db): Promise<Map<string, number>> {
  const [rows] = (await db.execute(sql`
    SELECT f.topic, COUNT(*) AS dead FROM side_effect_failures f
    LEFT JOIN side_effect_receipts r ON r.topic = f.topic AND r.event_id = f.event_id
    WHERE f.dead_at IS NOT NULL AND r.event_id IS NULL
    GROUP BY f.topic`)) as unknown as Rows<{ topic: string; dead: number | string }>;
  return new Map(rows.map((row) => [row.topic, Number(row.dead)]));
}

export interface DeadSideEffect {
  tenantId: number;
  roundId: string;
  topic: string;
  attempts: number;
  lastError: string;
}

/**
 * After a fix: hands the dead effects (of one round, or of one operator, or all) back to the relay.
 * Their failure records are deleted (each may again take `maxAttempts`) and their outbox rows are
 * marked unpublished; effects already applied are receipt no-ops when the row goes out again.
 */
export async function retryDeadSideEffects(
  db: Db,
  filter: { tenantId?: number; roundId?: string } = {},
): Promise<DeadSideEffect[]> {
  return withTransaction(db, async (tx) => {
    const where = sql.join(
      [
        sql`dead_at IS NOT NULL`,
        ...(filter.tenantId === undefined ? [] : [sql`tenant_id = ${filter.tenantId}`]),
        ...(filter.roundId === undefined ? [] : [sql`round_id = ${filter.roundId}`]),
      ],
      sql` AND `,
    );
    const [rows] = (await tx.execute(sql`
      SELECT event_id, topic, tenant_id, round_id, attempts, last_error
      FROM side_effect_failures WHERE ${where} FOR UPDATE`)) as unknown as Rows<{
      event_id: string;
      topic: string;
      tenant_id: number;
      round_id: string;
      attempts: number;
      last_error: string;
    }>;
    if (rows.length === 0) return [];
    const eventIds = sql.join(
      [...new Set(rows.map((row) => row.event_id))].map((eventId) => sql`${eventId}`),
      sql`, `,
    );
    await tx.execute(sql`DELETE FROM side_effect_failures WHERE ${where}`);
    await tx.execute(sql`
      UPDATE outbox SET dead_at = NULL, published_at = NULL
      WHERE event_id IN (${eventIds}) AND applied_at IS NULL`);
    return rows.map((row) => ({
      tenantId: Number(row.tenant_id),
      roundId: row.round_id,
      topic: row.topic,
      attempts: Number(row.attempts),
      lastError: row.last_error,
    }));
  });
}
