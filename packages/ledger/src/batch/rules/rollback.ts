import { WalletError } from "@wallet/contracts/errors";
import type { RollbackRequest } from "@wallet/contracts/wallet-request";
import type { AnomalyKind } from "../../anomalies.ts";
import { newOperatorTxId } from "../../callback-input.ts";
import type { Outcome } from "../../outcome.ts";
import { type BatchState, idKey } from "../state.ts";
import { book, playerWallet, requireRoom, transfer, withAnomalies } from "./booking.ts";

/**
 * ROLL_BACK refunds the original bet's amount, once per bet whatever the rollback's own id.
 * A rollback for a bet we never saw leaves a tombstone, so the bet arriving late moves nothing.
 */
export function refundBet(state: BatchState, tenantId: number, request: RollbackRequest): Outcome {
  const { player, wallet } = playerWallet(state, tenantId, request.user_id, request.currency);
  const betTxId = request.withdraw_provider_tx_id;
  const bet = state.bet(tenantId, betTxId);
  if (!bet) {
    state.addBet({
      tenantId,
      providerTxId: betTxId,
      playerId: player.id,
      roundId: request.action_id,
      game: request.game,
      currency: wallet.currency,
      kind: "BET",
      amount: request.amount,
      status: "tombstone",
      wonAmount: 0n,
      winCount: 0,
      freeBetGrantId: null,
      rollbackProviderTxId: request.provider_tx_id,
    });
    return transfer(player, wallet, request.provider_tx_id, newOperatorTxId());
  }
  if (bet.playerId !== player.id) {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betTxId} belongs to another player`);
  }
  if (bet.status === "rolled_back" || bet.status === "tombstone") {
    // A bet is refunded once: later rollbacks under new ids get the first rollback's answer.
    const first = bet.rollbackProviderTxId
      ? state.records.get(idKey(tenantId, bet.rollbackProviderTxId))
      : undefined;
    if (!first)
      throw new Error(`rolled-back bet has no stored rollback answer (${bet.rollbackProviderTxId})`);
    return { status: first.status, body: first.response, replayed: true };
  }
  if (bet.status === "won") {
    throw new WalletError(
      "BAD_REQUEST",
      `withdraw_provider_tx_id: bet ${betTxId} already has a WIN and cannot be rolled back`,
    );
  }
  // What the bet took goes back, whatever amount or round the rollback names: refused, the refund
  // would be lost (the platform never resends a 4xx); the difference is marked instead.
  const anomalies: AnomalyKind[] = [];
  if (request.amount !== bet.amount) anomalies.push("rollback_amount_differs");
  if (request.action_id !== bet.roundId) anomalies.push("rollback_round_differs");
  requireRoom(wallet, bet.amount);
  const operatorTxId = newOperatorTxId();
  if (bet.amount > 0n) {
    book(
      state,
      { player, wallet, delta: bet.amount, anomalies, change: { staked: -bet.amount, won: 0n } },
      {
        kind: "ROLL_BACK",
        operatorTxId,
        providerTxId: request.provider_tx_id,
        roundId: bet.roundId,
        game: bet.game,
        betId: bet.id,
        betProviderTxId: bet.providerTxId,
      },
    );
  }
  if (bet.freeBetGrantId !== null) state.restoreGrant(bet.freeBetGrantId);
  if (bet.kind === "BET")
    state.setStaked(bet.playerId, bet.roundId, state.staked(bet.playerId, bet.roundId) - bet.amount);
  bet.status = "rolled_back";
  bet.rollbackProviderTxId = request.provider_tx_id;
  state.changed(bet);
  return withAnomalies(transfer(player, wallet, request.provider_tx_id, operatorTxId), anomalies);
}
