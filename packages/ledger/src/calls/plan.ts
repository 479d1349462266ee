import { callbackCatalog } from "@wallet/contracts/callback-catalog";
import { isCloseRound } from "@wallet/contracts/close-refusal";
import type { StoredClose } from "@wallet/contracts/jobs";
import { stringifyJson } from "@wallet/contracts/json";
import type { BatchRequest } from "../batch/requests.ts";
import type { Outcome } from "../outcome.ts";
import { parseOutcome } from "../outcome.ts";
import type { Call } from "./call.ts";

/**
 * Where a call runs. The callbacks the platform sends in volume (BET, WIN, FREE_BET_WIN, ROLL_BACK,
 * CLOSE_ROUND, /balance by user) go into the group commit; the rare ones (FREE_BET, /auth,
 * adjustments, /balance by session only) run alone with their own verbs; a body that fails its
 * schema is answered 400 here and never stored.
 */
export type CallPlan = GroupPlan | { run: "alone" };
/** A call the group commit takes: a request for its batch, or already answered. */
export type GroupPlan = { run: "batch"; request: BatchRequest } | { run: "answered"; outcome: Outcome };

export function planCall(call: Call): CallPlan {
  const { tenantId, bodySha256 } = call;
  switch (call.op) {
    case "withdraw": {
      const parsed = parseOutcome(callbackCatalog.withdraw.request, call.body);
      if (!parsed.ok) return { run: "answered", outcome: parsed.outcome };
      const request = parsed.value;
      return request.action === "BET"
        ? { run: "batch", request: { kind: "BET", tenantId, bodySha256, request } }
        : { run: "alone" };
    }
    case "deposit": {
      if (call.storedClose) return { run: "batch", request: storedCloseRequest(call, call.storedClose) };
      // The gateway saw what JSON.parse hides (a repeated key, bytes that are not UTF-8): the body
      // may even parse here, so it is not judged again but stored as refused (verbs/refused-closes.ts).
      if (call.closeRefusal) return { run: "alone" };
      const parsed = parseOutcome(callbackCatalog.deposit.request, call.body);
      // A refused CLOSE_ROUND is stored before it is answered (verbs/refused-closes.ts).
      if (!parsed.ok)
        return isCloseRound(call.body) ? { run: "alone" } : { run: "answered", outcome: parsed.outcome };
      const request = parsed.value;
      switch (request.action) {
        case "WIN":
        case "FREE_BET_WIN":
          return { run: "batch", request: { kind: "CREDIT", tenantId, bodySha256, request } };
        case "ROLL_BACK":
          return { run: "batch", request: { kind: "ROLL_BACK", tenantId, bodySha256, request } };
        case "CLOSE_ROUND": {
          const { attributes, ...fields } = request;
          return {
            run: "batch",
            request: {
              kind: "CLOSE",
              tenantId,
              bodySha256,
              request: fields,
              arrays: {
                betCount: attributes.bets.length,
                stakes: stringifyJson(attributes.bets),
                cashOutCoefficients: JSON.stringify(attributes.cashOutCoefficients),
                piecesKey: null,
              },
              traceparent: call.traceparent,
            },
          };
        }
      }
      break;
    }
    case "balance": {
      const parsed = parseOutcome(callbackCatalog.balance.request, call.body);
      if (!parsed.ok) return { run: "answered", outcome: parsed.outcome };
      const { user_id, session_token, currency } = parsed.value;
      if (user_id === undefined) return { run: "alone" };
      return {
        run: "batch",
        request: { kind: "BALANCE", tenantId, request: { user_id, session_token, currency } },
      };
    }
  }
  return { run: "alone" };
}

/** A close the intake stored in pieces: its round is closed like any other, its arrays named by key. */
function storedCloseRequest(call: Call, stored: StoredClose): BatchRequest {
  const { roundId, providerTxId, game, currency, betCount } = stored;
  return {
    kind: "CLOSE",
    tenantId: call.tenantId,
    bodySha256: call.bodySha256,
    request: {
      action: "CLOSE_ROUND",
      action_id: roundId,
      provider_tx_id: providerTxId,
      game,
      ...(currency === undefined ? {} : { currency }),
    },
    arrays: { betCount, stakes: "", cashOutCoefficients: "", piecesKey: call.bodySha256 },
    traceparent: call.traceparent,
  };
}
