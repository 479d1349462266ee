import type { Step } from "./converge.ts";
import { hasIndex } from "./probes.ts";

/**
 * Migration 0003 (issue 34): the indexes the worker's retention deletes by, oldest first and a chunk
 * at a time (`retention/prune-expired.ts`), so that a chunk reads the rows it deletes and not the
 * whole table: `operator_actions` grows with every operator-API write (a launch each), and neither it
 * nor `refused_closes` had an index led by the time retention compares. CREATE INDEX builds online
 * on MySQL 8.4, MariaDB 10.11 and TiDB (writes go on); the common dialect has no CREATE INDEX IF NOT
 * EXISTS, so each step has a probe. The baseline makes them too: on a fresh install nothing runs.
 */
export const retentionIndexSteps: Step[] = [
  {
    sql: "CREATE INDEX `operator_actions_created` ON `operator_actions` (`created_at`)",
    applied: hasIndex("operator_actions", "operator_actions_created", ["created_at"]),
  },
  {
    sql: "CREATE INDEX `refused_closes_resolved` ON `refused_closes` (`resolved_at`)",
    applied: hasIndex("refused_closes", "refused_closes_resolved", ["resolved_at"]),
  },
];
