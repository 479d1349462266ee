import type { CallbackInput } from "../callback-input.ts";
import { runCallback } from "../callbacks.ts";
import type { LedgerContext } from "../context.ts";
import type { Outcome } from "../outcome.ts";

/**
 * `/deposit` for one callback: WIN and FREE_BET_WIN credit, ROLL_BACK refunds and CLOSE_ROUND
 * notifies, all by the group commit's rules (`batch/rules.ts`).
 */
export function deposit({ ctx, input }: { ctx: LedgerContext; input: CallbackInput }): Promise<Outcome> {
  return runCallback(ctx, { op: "deposit", ...input });
}
