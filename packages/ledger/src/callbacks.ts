import { withTraceparent } from "@wallet/telemetry/spans";
import { type BatchRequest, type CallbackJob, planCallback } from "./batch/requests.ts";
import { runBatch, type Settled } from "./batch/run-batch.ts";
import type { LedgerContext } from "./context.ts";
import type { Outcome } from "./outcome.ts";
import { adjustBalance } from "./verbs/adjust.ts";
import { authenticate } from "./verbs/authenticate.ts";
import { balanceBySession } from "./verbs/balance-by-session.ts";
import { notifyCloseRound } from "./verbs/close-round.ts";
import { placeFreeBet } from "./verbs/free-bet.ts";

export type { CallbackJob } from "./batch/requests.ts";
export type { Settled } from "./batch/run-batch.ts";

/**
 * Runs ledger jobs, each to its own answer, in the order given where order matters (the same
 * player twice). BET, WIN, FREE_BET_WIN, ROLL_BACK and /balance by user go into one group-committed
 * transaction; the rare verbs run alone, beside it.
 */
export async function runCallbacks(ctx: LedgerContext, jobs: CallbackJob[]): Promise<Settled[]> {
  const settled: Settled[] = new Array(jobs.length);
  const batch: BatchRequest[] = [];
  const batchIndexes: number[] = [];
  const alone: Promise<void>[] = [];
  jobs.forEach((job, index) => {
    const planned = planCallback(job);
    if (planned.run === "answered") settled[index] = { ok: true, outcome: planned.outcome };
    if (planned.run === "batch") {
      batch.push(planned.request);
      batchIndexes.push(index);
    }
    if (planned.run === "alone") {
      alone.push(
        withTraceparent(job.traceparent, () => runAlone(ctx, job)).then(
          (outcome) => {
            settled[index] = { ok: true, outcome };
          },
          (error: unknown) => {
            settled[index] = { ok: false, error };
          },
        ),
      );
    }
  });
  const [batched] = await Promise.all([runBatch(ctx, batch), ...alone]);
  batched.forEach((result, position) => {
    settled[batchIndexes[position] as number] = result;
  });
  return settled;
}

/** One job: its answer, or the error (a transient failure the caller answers 503). */
export async function runCallback(ctx: LedgerContext, job: CallbackJob): Promise<Outcome> {
  const [result] = await runCallbacks(ctx, [job]);
  if (!result) throw new Error("no outcome");
  if (!result.ok) throw result.error;
  return result.outcome;
}

/** A rare verb (FREE_BET, CLOSE_ROUND, /auth, adjustments, /balance by session) in its own transaction. */
export function runAlone(ctx: LedgerContext, job: CallbackJob): Promise<Outcome> {
  const input = { tenantId: job.tenantId, body: job.body, bodySha256: job.bodySha256 };
  switch (job.op) {
    case "auth":
      return authenticate({ ctx, input });
    case "adjust":
      return adjustBalance({ ctx, input });
    case "balance":
      return balanceBySession({ ctx, input });
    case "withdraw":
      return placeFreeBet({ ctx, input });
    case "deposit":
      return notifyCloseRound({ ctx, input });
  }
}
