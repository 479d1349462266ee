import { stringifyJson } from "@wallet/contracts/json";
import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { newOperatorTxId } from "../../callback-input.ts";
import { type Outcome, success } from "../../outcome.ts";
import { everyTopic } from "../../schema/outbox.ts";
import type { MoneyRequest } from "../requests.ts";
import { type BatchState, idKey } from "../state.ts";

/**
 * CLOSE_ROUND is a notification: it records the close with its per-bet arrays and owes the four
 * side effects through the outbox, in the batch's transaction. It never touches a balance and never
 * answers 402. A second close of the same round (under any id) gets the first close's answer.
 */
export function closeRound(state: BatchState, call: Extract<MoneyRequest, { kind: "CLOSE" }>): Outcome {
  const { tenantId, request } = call;
  const roundId = request.action_id;
  const earlierId = state.closes.get(idKey(tenantId, roundId));
  if (earlierId !== undefined) {
    const first = state.records.get(idKey(tenantId, earlierId));
    if (!first) throw new Error(`closed round ${roundId} has no stored answer`);
    return { status: first.status, body: first.response, replayed: true };
  }
  const operatorTxId = newOperatorTxId();
  const eventId = closeRoundEventId(tenantId, roundId);
  const payload = stringifyJson({
    eventId,
    tenantId,
    roundId,
    game: request.game,
    providerTxId: request.provider_tx_id,
    traceparent: call.traceparent,
  });
  state.close(
    {
      tenantId,
      roundId,
      providerTxId: request.provider_tx_id,
      operatorTxId,
      game: request.game,
      currency: request.currency ?? null,
      ...call.arrays,
    },
    { tenantId, topic: everyTopic, eventId, payload },
  );
  return success({ operator_tx_id: operatorTxId, provider_tx_id: request.provider_tx_id });
}
