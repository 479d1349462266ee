import { char, mediumtext, mysqlTable, primaryKey, smallint, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId } from "./columns.ts";

/**
 * The outcome of every `/withdraw` and `/deposit` per `(tenant, provider_tx_id)`. The primary key
 * is the guard against double processing; `response` is the exact body answered the first time,
 * so a retry gets the same bytes.
 */
export const idempotencyRecords = mysqlTable(
  "idempotency_records",
  {
    tenantId: rowId("tenant_id").notNull(),
    providerTxId: idString("provider_tx_id", 128).notNull(),
    bodySha256: char("body_sha256", { length: 64 }).notNull(),
    action: varchar("action", { length: 16 }).notNull(),
    status: smallint("status").notNull(),
    response: mediumtext("response").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.providerTxId] })],
);
