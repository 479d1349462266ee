import type { Db } from "../db.ts";
import { operatorActions } from "../schema/operator-actions.ts";
import { auditDetailText } from "./audit-detail.ts";

/**
 * One line of the operator API's audit trail: a write, who made it (never their secret), what it
 * answered. `detail` is kept to 64 KiB (`auditDetailText`: a larger value by its size and digest).
 */
export async function recordOperatorAction(
  db: Db,
  input: {
    tenantId: number;
    action: string;
    subject: string;
    actor: string;
    detail: Record<string, unknown>;
  },
): Promise<void> {
  await db
    .insert(operatorActions)
    .values({ ...input, subject: input.subject.slice(0, 255), detail: auditDetailText(input.detail) });
}
