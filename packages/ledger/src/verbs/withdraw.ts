import type { CallbackInput } from "../callback-input.ts";
import { runCallback } from "../callbacks.ts";
import type { LedgerContext } from "../context.ts";
import type { Outcome } from "../outcome.ts";

/**
 * `/withdraw` for one callback: BET debits real money (through the group commit, as a batch of
 * one), FREE_BET consumes a granted free bet (`place-free-bet.ts`). Workers run many at once with
 * `runCallbacks`; this is the same path for one.
 */
export function withdraw({ ctx, input }: { ctx: LedgerContext; input: CallbackInput }): Promise<Outcome> {
  return runCallback(ctx, { op: "withdraw", ...input });
}
