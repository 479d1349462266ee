import type { Step } from "./converge.ts";
import { hasIndex, not } from "./probes.ts";

/**
 * Migration 0004 (issue 39): the outbox's index of unapplied rows is led by `applied_at, dead_at`,
 * so markApplied, the sweep and the backlog gauge read the live rows alone. Led by `applied_at,
 * published_at`, it made them read every dead row first: 1,000 dead rows filled markApplied's read
 * each turn (a new round's row was never marked applied, and the sweep redelivered it for good),
 * and with 100,000 the sweep and the gauge read over 100,000 rows each. The new index is made
 * before the old one is dropped, so the outbox is never without one; CREATE INDEX builds online on
 * MySQL 8.4, MariaDB 10.11 and TiDB (writes go on), and the common dialect has neither CREATE INDEX
 * IF NOT EXISTS nor DROP INDEX IF EXISTS, so each step has a probe. The baseline makes the new
 * index and not the old: on a fresh install nothing runs.
 */
export const outboxDeadIndexSteps: Step[] = [
  {
    sql: "CREATE INDEX `outbox_applied_dead` ON `outbox` (`applied_at`, `dead_at`, `published_at`, `created_at`)",
    applied: hasIndex("outbox", "outbox_applied_dead", [
      "applied_at",
      "dead_at",
      "published_at",
      "created_at",
    ]),
  },
  {
    sql: "DROP INDEX `outbox_applied` ON `outbox`",
    applied: not(hasIndex("outbox", "outbox_applied")),
  },
];
