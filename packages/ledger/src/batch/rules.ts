import { WalletError } from "@wallet/contracts/errors";
import { replay } from "../idempotency.ts";
import { failure, type Outcome } from "../outcome.ts";
import type { BatchRequest, MoneyRequest } from "./requests.ts";
import { readBalance } from "./rules/balance.ts";
import { placeBet } from "./rules/bet.ts";
import { closeRound } from "./rules/close.ts";
import { refundBet } from "./rules/rollback.ts";
import { creditWin } from "./rules/win.ts";
import { type BatchState, idKey } from "./state.ts";

/**
 * Decides one job of a batch against the batch's state: the ledger's rules, in TypeScript, between
 * the batch's locking read and its writes. A refusal (4xx) is this job's answer alone, stored like
 * any answer; it changes nothing for its neighbours. Anything else thrown fails the whole batch.
 */
export function decide(state: BatchState, job: BatchRequest): Outcome {
  if (job.kind === "BALANCE") return refusalsAnswered(() => readBalance(state, job));
  const { tenantId, request, bodySha256 } = job;
  const earlier = state.records.get(idKey(tenantId, request.provider_tx_id));
  if (earlier) return replay(earlier, bodySha256);
  const outcome = refusalsAnswered(() => decideMoney(state, job));
  state.store({
    tenantId,
    providerTxId: request.provider_tx_id,
    bodySha256,
    action: request.action,
    status: outcome.status,
    response: outcome.body,
  });
  return outcome;
}

function decideMoney(state: BatchState, job: MoneyRequest): Outcome {
  switch (job.kind) {
    case "BET":
      return placeBet(state, job.tenantId, job.request);
    case "CREDIT":
      return creditWin(state, job.tenantId, job.request);
    case "ROLL_BACK":
      return refundBet(state, job.tenantId, job.request);
    case "CLOSE":
      return closeRound(state, job);
  }
}

function refusalsAnswered(decideJob: () => Outcome): Outcome {
  try {
    return decideJob();
  } catch (error) {
    if (error instanceof WalletError && !error.retryable) return failure(error);
    throw error;
  }
}
