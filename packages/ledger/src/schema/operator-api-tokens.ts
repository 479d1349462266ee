import { char, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, rowId, timestamp3 } from "./columns.ts";

export const tokenScopes = ["read", "write"] as const;
export type TokenScope = (typeof tokenScopes)[number];

/**
 * Operator-API bearer tokens, one operator each (`pnpm tokens`). Only the token's SHA-256 is kept;
 * `public_id` names it in lists and in the audit trail without being a secret. Several live at once
 * (a rotation: create the new one, move the clients, revoke the old); a revoked one stays, for audit,
 * until the worker's retention deletes it REVOKED_TOKENS_RETENTION_DAYS after its revocation (a few
 * rows per operator: no index on `revoked_at` is needed for that).
 */
export const operatorApiTokens = mysqlTable(
  "operator_api_tokens",
  {
    id: rowId("id").autoincrement().primaryKey(),
    publicId: varchar("public_id", { length: 16 }).notNull(),
    tokenHash: char("token_hash", { length: 64 }).notNull(),
    tenantId: rowId("tenant_id").notNull(),
    scope: varchar("scope", { length: 8, enum: tokenScopes }).notNull(),
    label: varchar("label", { length: 128 }).notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp3("revoked_at"),
  },
  (t) => [
    uniqueIndex("operator_api_tokens_public").on(t.publicId),
    uniqueIndex("operator_api_tokens_hash").on(t.tokenHash),
  ],
);
