import { stringifyJson } from "@wallet/contracts/json";
import { closeRoundEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import type { CloseRoundRequest } from "@wallet/contracts/wallet-request";
import { closeRoundRequest } from "@wallet/contracts/wallet-request";
import { currentTraceparent } from "@wallet/telemetry/spans";
import { and, eq, sql } from "drizzle-orm";
import { newOperatorTxId } from "../callback-input.ts";
import type { Tx } from "../db.ts";
import { findRecord, idempotentCallback } from "../idempotency.ts";
import { type Outcome, success } from "../outcome.ts";
import { outbox } from "../schema/outbox.ts";
import { roundCloses } from "../schema/round-closes.ts";
import { rounds } from "../schema/rounds.ts";

/** `/deposit` CLOSE_ROUND, idempotent on its `provider_tx_id`; one per round, so it runs alone. */
export const notifyCloseRound = idempotentCallback(closeRoundRequest, (tx, request, input) =>
  closeRound(tx, input.tenantId, request),
);

/**
 * CLOSE_ROUND is a notification: it records the close with its per-bet arrays and owes the four
 * side effects through the outbox, in one transaction. It never touches a balance and never
 * answers 402. A second close of the same round (under any id) gets the first close's answer.
 */
export async function closeRound(tx: Tx, tenantId: number, request: CloseRoundRequest): Promise<Outcome> {
  const roundId = request.action_id;
  const [earlier] = await tx
    .select({ providerTxId: roundCloses.providerTxId })
    .from(roundCloses)
    .where(and(eq(roundCloses.tenantId, tenantId), eq(roundCloses.roundId, roundId)))
    .for("update");
  if (earlier) {
    const record = await findRecord(tx, tenantId, earlier.providerTxId);
    if (!record) throw new Error(`closed round ${roundId} has no stored answer`);
    return { status: record.status, body: record.response, replayed: true };
  }

  const operatorTxId = newOperatorTxId();
  const { bets: stakes, cashOutCoefficients } = request.attributes;
  const [inserted] = await tx.insert(roundCloses).values({
    tenantId,
    roundId,
    providerTxId: request.provider_tx_id,
    operatorTxId,
    game: request.game,
    currency: request.currency ?? null,
    betCount: stakes.length,
    stakes: stringifyJson(stakes),
    cashOutCoefficients: JSON.stringify(cashOutCoefficients),
  });
  await tx
    .insert(rounds)
    .values({ tenantId, roundId, game: request.game, closedAt: sql`CURRENT_TIMESTAMP(3)` })
    .onDuplicateKeyUpdate({ set: { closedAt: sql`CURRENT_TIMESTAMP(3)` } });
  const eventId = closeRoundEventId(tenantId, roundId);
  const payload = stringifyJson({
    eventId,
    tenantId,
    roundId,
    game: request.game,
    closeId: inserted.insertId,
    providerTxId: request.provider_tx_id,
    // The close's trace: the relay and the consumers link their spans to it.
    traceparent: currentTraceparent(),
  });
  await tx.insert(outbox).values(sideEffectTopics.map((topic) => ({ tenantId, topic, eventId, payload })));
  return success({ operator_tx_id: operatorTxId, provider_tx_id: request.provider_tx_id });
}
