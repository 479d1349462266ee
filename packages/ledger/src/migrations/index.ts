import { closePiecesSteps } from "./close-pieces.ts";
import { convergeSteps, type Step } from "./converge.ts";
import { outboxDeadIndexSteps } from "./outbox-dead-index.ts";
import { retentionIndexSteps } from "./retention-indexes.ts";
import { sqlSteps } from "./sql-steps.ts";

export type { Step };

/** A migration: named once and for all, recorded in `schema_migrations` once all its steps are done. */
export interface Migration {
  name: string;
  steps: Step[];
}

/**
 * Every migration, in order. A fresh install applies the baseline (the whole schema, a table a
 * statement) and finds nothing left to converge; an install of the earlier migrator finds its tables
 * there and is brought to the baseline's by `converge.ts`. Later changes are new migrations at the
 * end, each step with a probe or re-runnable by itself.
 */
export const migrations: Migration[] = [
  { name: "0001_baseline", steps: sqlSteps("0001_baseline.sql") },
  { name: "0002_converge_legacy", steps: convergeSteps },
  { name: "0003_retention_indexes", steps: retentionIndexSteps },
  { name: "0004_outbox_dead_index", steps: outboxDeadIndexSteps },
  { name: "0005_close_pieces", steps: closePiecesSteps() },
];
