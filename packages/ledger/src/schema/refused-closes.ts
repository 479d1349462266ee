import { char, index, int, mediumtext, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId, timestamp3 } from "./columns.ts";

/**
 * Every CLOSE_ROUND refused (400), with its body and why: the platform never resends a 4xx, so this
 * row is the only trace of that round's close until an SRE applies a corrected one
 * (`POST /v1/rounds/{id}/close`), which marks it resolved. One row per distinct body. A resolved
 * one is deleted by the worker's retention REFUSED_CLOSES_RETENTION_DAYS after its resolution; an
 * unresolved one is kept.
 */
export const refusedCloses = mysqlTable(
  "refused_closes",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    bodySha256: char("body_sha256", { length: 64 }).notNull(),
    /**
     * The body's `action_id` and `provider_tx_id` when each is an id within its limit, in code points
     * (`storedCloseIds`): a refusal stored with a round is one the manual close of that round takes.
     */
    roundId: idString("round_id", 128),
    providerTxId: idString("provider_tx_id", 255),
    reason: varchar("reason", { length: 32 }).notNull(),
    message: varchar("message", { length: 2000 }).notNull(),
    body: mediumtext("body").notNull(),
    /**
     * 0: `body` holds the whole body. Otherwise the body was past the ordinary limit: its bytes are in
     * this many `close_pieces` (part `body`, under `body_sha256`, gzipped) and `body` holds its start, as text.
     */
    bodyPieces: int("body_pieces").notNull().default(0),
    /** The body's size in bytes as received. */
    bodyBytes: int("body_bytes"),
    createdAt: createdAt(),
    resolvedAt: timestamp3("resolved_at"),
    resolution: varchar("resolution", { length: 255 }),
  },
  (t) => [
    uniqueIndex("refused_closes_tenant_body").on(t.tenantId, t.bodySha256),
    index("refused_closes_open").on(t.tenantId, t.resolvedAt, t.id),
    index("refused_closes_round").on(t.tenantId, t.roundId),
    // Retention deletes the longest-resolved rows in chunks, across operators.
    index("refused_closes_resolved").on(t.resolvedAt),
  ],
);
