import { stringifyJson } from "@wallet/contracts/json";
import type { Db } from "../db.ts";
import { operatorActions } from "../schema/operator-actions.ts";

/** One line of the operator API's audit trail: a write, who made it (never their secret), what it answered. */
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
    .values({ ...input, subject: input.subject.slice(0, 255), detail: stringifyJson(input.detail) });
}
