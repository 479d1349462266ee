import type { CallbackInput } from "../callback-input.ts";
import type { LedgerContext } from "../context.ts";
import type { Outcome } from "../outcome.ts";
import { runCall } from "./run-calls.ts";

/**
 * The three money callbacks as single calls, the way the worker runs them (`runCalls`): `/withdraw`
 * (BET group-committed, FREE_BET alone), `/deposit` (WIN, FREE_BET_WIN, ROLL_BACK, CLOSE_ROUND) and
 * `/balance` (by user group-committed, by session alone).
 */
export function withdraw({ ctx, input }: { ctx: LedgerContext; input: CallbackInput }): Promise<Outcome> {
  return runCall(ctx, { op: "withdraw", ...input });
}

export function deposit({ ctx, input }: { ctx: LedgerContext; input: CallbackInput }): Promise<Outcome> {
  return runCall(ctx, { op: "deposit", ...input });
}

export function balance({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; body: unknown };
}): Promise<Outcome> {
  return runCall(ctx, { op: "balance", bodySha256: "", ...input });
}
