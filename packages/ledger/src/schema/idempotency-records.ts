import { closeRoundTxIdMax } from "@wallet/contracts/close-round";
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
    // Per-bet ids are at most 128 characters; a CLOSE_ROUND's key is longer (close-round.ts).
    providerTxId: idString("provider_tx_id", closeRoundTxIdMax).notNull(),
    bodySha256: char("body_sha256", { length: 64 }).notNull(),
    action: varchar("action", { length: 16 }).notNull(),
    status: smallint("status").notNull(),
    response: mediumtext("response").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.providerTxId] })],
);
