import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../db.ts";
import { operatorActions } from "../schema/operator-actions.ts";

/** The operator's audit trail, newest first, `limit` at a time; `before` continues from a line's id. */
export async function listOperatorActions(
  db: Db,
  input: { tenantId: number; limit: number; before?: number },
) {
  const rows = await db
    .select()
    .from(operatorActions)
    .where(
      and(
        eq(operatorActions.tenantId, input.tenantId),
        input.before === undefined ? undefined : lt(operatorActions.id, input.before),
      ),
    )
    .orderBy(desc(operatorActions.createdAt), desc(operatorActions.id))
    .limit(input.limit);
  return {
    actions: rows.map((row) => ({
      id: row.id,
      action: row.action,
      subject: row.subject,
      actor: row.actor,
      detail: JSON.parse(row.detail) as unknown,
      created_at: row.createdAt.toISOString(),
    })),
    next_before: rows.length === input.limit ? (rows.at(-1)?.id ?? null) : null,
  };
}
