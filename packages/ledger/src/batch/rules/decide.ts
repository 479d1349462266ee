import { WalletError } from "@wallet/contracts/errors";
import { replay } from "../../idempotency.ts";
import { failure, type Outcome } from "../../outcome.ts";
import type { BatchRequest, MoneyRequest } from "../requests.ts";
import { type BatchState, idKey } from "../state.ts";
import { readBalance } from "./balance.ts";
import { placeBet } from "./bet.ts";
import { closeRound } from "./close.ts";
import { refundBet } from "./rollback.ts";
import { creditWin } from "./win.ts";

/**
 * Decides one call of a batch against the batch's state: the ledger's rules, in TypeScript, between
 * the batch's locking read and its writes. A refusal (4xx) is this call's answer alone, stored like
 * any answer; it changes nothing for its neighbours. Anything else thrown fails the whole batch.
 */
export function decide(state: BatchState, call: BatchRequest): Outcome {
  if (call.kind === "BALANCE") return refusalsAnswered(() => readBalance(state, call));
  const { tenantId, request, bodySha256 } = call;
  const earlier = state.records.get(idKey(tenantId, request.provider_tx_id));
  if (earlier) return replay(earlier, bodySha256);
  const outcome = refusalsAnswered(() => decideMoney(state, call));
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

function decideMoney(state: BatchState, call: MoneyRequest): Outcome {
  switch (call.kind) {
    case "BET":
      return placeBet(state, call.tenantId, call.request);
    case "CREDIT":
      return creditWin(state, call.tenantId, call.request);
    case "ROLL_BACK":
      return refundBet(state, call.tenantId, call.request);
    case "CLOSE":
      return closeRound(state, call);
  }
}

function refusalsAnswered(decideCall: () => Outcome): Outcome {
  try {
    return decideCall();
  } catch (error) {
    if (error instanceof WalletError && !error.retryable) return failure(error);
    throw error;
  }
}
