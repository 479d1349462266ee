import { runCallback } from "../callbacks.ts";
import type { LedgerContext } from "../context.ts";
import type { Outcome } from "../outcome.ts";

export interface BalanceInput {
  tenantId: number;
  body: unknown;
}

/**
 * `/balance` for one callback: the player's current currency and amount in millis. By `user_id`
 * it is read in the group commit (`batch/rules.ts`); by session token alone in `balance-by-session.ts`.
 */
export function balance({ ctx, input }: { ctx: LedgerContext; input: BalanceInput }): Promise<Outcome> {
  return runCallback(ctx, { op: "balance", bodySha256: "", ...input });
}
