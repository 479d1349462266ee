import { withTraceparent } from "@wallet/telemetry/spans";
import { type BatchRequest, type CallbackJob, inOrderRuns, planCallback } from "./batch/requests.ts";
import { runBatch, type Settled } from "./batch/run-batch.ts";
import type { LedgerContext } from "./context.ts";
import type { Outcome } from "./outcome.ts";
import { adjustBalance } from "./verbs/adjust-balance.ts";
import { authenticate } from "./verbs/authenticate.ts";
import { balanceBySession } from "./verbs/balance-by-session.ts";
import { placeFreeBet } from "./verbs/place-free-bet.ts";
import { refuseClose } from "./verbs/refused-closes.ts";

export type { CallbackJob } from "./batch/requests.ts";
export type { Settled } from "./batch/run-batch.ts";

/**
 * Runs ledger jobs in the order given, each to its own answer: BET, WIN, FREE_BET_WIN, ROLL_BACK and
 * /balance by user between two rare verbs go into one group-committed transaction, each rare verb
 * runs alone in between (`inOrderRuns`), the same order the worker keeps within a job.
 */
export async function runCallbacks(ctx: LedgerContext, jobs: CallbackJob[]): Promise<Settled[]> {
  const planned = jobs.map((job) => ({ job, plan: planCallback(job) }));
  const settled: Settled[] = [];
  for (const run of inOrderRuns(planned, ({ plan }) => plan.run === "alone")) {
    const [first] = run;
    if (first && first.plan.run === "alone") {
      const { job } = first;
      settled.push(
        await withTraceparent(job.traceparent, () => runAlone(ctx, job)).then(
          (outcome): Settled => ({ ok: true, outcome }),
          (error: unknown): Settled => ({ ok: false, error }),
        ),
      );
      continue;
    }
    const requests: BatchRequest[] = [];
    for (const { plan } of run) if (plan.run === "batch") requests.push(plan.request);
    const batched = await runBatch(ctx, requests);
    let next = 0;
    for (const { plan } of run) {
      if (plan.run === "answered") settled.push({ ok: true, outcome: plan.outcome });
      else settled.push(batched[next++] ?? { ok: false, error: new Error("no outcome") });
    }
  }
  return settled;
}

/** One job: its answer, or the error (a transient failure the caller answers 503). */
export async function runCallback(ctx: LedgerContext, job: CallbackJob): Promise<Outcome> {
  const [result] = await runCallbacks(ctx, [job]);
  if (!result) throw new Error("no outcome");
  if (!result.ok) throw result.error;
  return result.outcome;
}

/** A rare verb (FREE_BET, /auth, adjustments, /balance by session) in its own transaction. */
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
      // Every /deposit that parses is group-committed: planCallback sends only a refused CLOSE_ROUND
      // here, refused by its schema or by the gateway before it (`closeRefusal`).
      return refuseClose({
        ctx,
        input: { ...input, rawBody: job.rawBody, refusal: job.closeRefusal },
      });
  }
}
