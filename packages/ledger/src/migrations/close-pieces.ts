import type { Step } from "./converge.ts";
import { hasColumn } from "./probes.ts";
import { sqlSteps } from "./sql-steps.ts";

/**
 * Migration 0005 (issue 39): a CLOSE_ROUND past the ordinary body limit is kept in pieces, never
 * as one row of its size (TiDB refuses a row entry over 6 MiB by default): the `close_pieces` table
 * (re-runnable: CREATE TABLE IF NOT EXISTS, the baseline's own statement), the key of a close's
 * pieces on `round_closes`, and on `refused_closes` how many pieces hold a refused body and its size.
 * ADD COLUMN is online on MySQL 8.4 (INSTANT), MariaDB 10.11 (INSTANT) and TiDB; the common dialect
 * has no ADD COLUMN IF NOT EXISTS, so each has a probe. The baseline makes them too.
 */
export const closePiecesSteps = (): Step[] => [
  // Re-runnable as it is; the probe only spares a fresh install (whose baseline made it) the statement.
  ...sqlSteps("0001_baseline.sql")
    .filter((step) => step.sql.startsWith("CREATE TABLE IF NOT EXISTS `close_pieces`"))
    .map((step) => ({ ...step, applied: hasColumn("close_pieces", "bytes") })),
  {
    sql: "ALTER TABLE `round_closes` ADD COLUMN `pieces_key` char(64)",
    applied: hasColumn("round_closes", "pieces_key"),
  },
  {
    sql: "ALTER TABLE `refused_closes` ADD COLUMN `body_pieces` int NOT NULL DEFAULT 0",
    applied: hasColumn("refused_closes", "body_pieces"),
  },
  {
    sql: "ALTER TABLE `refused_closes` ADD COLUMN `body_bytes` int",
    applied: hasColumn("refused_closes", "body_bytes"),
  },
];
