import type { LedgerContext } from "@wallet/ledger/context";
import { recordOperatorAction } from "@wallet/ledger/verbs/operator-audit";
import type { Response } from "express";
import { principalOf } from "./bearer.ts";

/**
 * A write's audit line (`GET /v1/audit`), naming the token that made it, written once the write is
 * done. `detail` says what was done, never a credential handed out (no user token, no session
 * token, no launch URL): the trail is read by more people than may use those.
 */
export function auditWrite(
  ctx: LedgerContext,
  res: Response,
  line: { tenantId: number; action: string; subject: string; detail: Record<string, unknown> },
): Promise<void> {
  return recordOperatorAction(ctx.db, { ...line, actor: principalOf(res).actor });
}
