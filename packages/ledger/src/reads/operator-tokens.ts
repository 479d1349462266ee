import { desc, eq } from "drizzle-orm";
import type { Db } from "../db.ts";
import { operatorApiTokens } from "../schema/operator-api-tokens.ts";

/** Every operator token (or one operator's), newest first: ids, scopes and dates, never a secret or its hash. */
export async function listOperatorTokens(db: Db, input: { tenantId?: number }) {
  const rows = await db
    .select()
    .from(operatorApiTokens)
    .where(input.tenantId === undefined ? undefined : eq(operatorApiTokens.tenantId, input.tenantId))
    .orderBy(desc(operatorApiTokens.createdAt), desc(operatorApiTokens.id));
  return rows.map((row) => ({
    public_id: row.publicId,
    operator_id: row.tenantId,
    scope: row.scope,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  }));
}
