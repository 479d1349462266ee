import { mysqlTable, tinyint } from "drizzle-orm/mysql-core";

/**
 * Never holds a row. A write that must not commit unless a condition holds inserts two equal keys
 * here when the condition fails: a duplicate-key error every server raises, in the same round trip
 * as the writes, before COMMIT (`batch/writes.ts`). The condition used to be a scalar subquery of two
 * rows evaluated only when needed, which MySQL or TiDB may evaluate while planning, and so always.
 */
export const writeChecks = mysqlTable("write_checks", {
  k: tinyint("k", { unsigned: true }).primaryKey(),
});
