import { withTraceparent } from "@wallet/telemetry/spans";
import { runBatch } from "../batch/run-batch.ts";
import { type Call, type OutcomeOrError, settle } from "../calls/call.ts";
import { runAlone } from "../calls/run-alone.ts";
import { runInOrder, settleRun } from "../calls/run-in-order.ts";
import type { LedgerContext } from "../context.ts";
import type { Outcome } from "../outcome.ts";

/**
 * Calls in order as the worker runs a job's (`runInOrder`), with the plain batch in place of the
 * worker's group commit: what the ledger's tests drive, without Redis or BullMQ.
 */
export function runCalls(ctx: LedgerContext, calls: Call[]): Promise<OutcomeOrError[]> {
  return runInOrder(calls, {
    group: (run) =>
      settleRun(
        run.map(({ plan }) => plan),
        (requests) => runBatch(ctx, requests),
      ),
    alone: (call) => settle(withTraceparent(call.traceparent, () => runAlone(ctx, call))),
  });
}

/** One call: its outcome, or the error (a transient failure the worker answers 503). */
export async function runCall(ctx: LedgerContext, call: Call): Promise<Outcome> {
  const [result] = await runCalls(ctx, [call]);
  if (!result) throw new Error("no outcome");
  if (!result.ok) throw result.error;
  return result.outcome;
}
