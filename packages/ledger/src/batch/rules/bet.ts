import { WalletError } from "@wallet/contracts/errors";
import type { BetRequest } from "@wallet/contracts/wallet-request";
import type { AnomalyKind } from "../../anomalies.ts";
import { newOperatorTxId, tombstoneConflict } from "../../callback-input.ts";
import type { Outcome } from "../../outcome.ts";
import { requireLiveSession } from "../../steps/live-session.ts";
import type { BatchState } from "../state.ts";
import { book, playerWallet, transfer, withAnomalies } from "./booking.ts";

/** BET debits real money: a live session of this player, a new id, min/max bet, and the funds (402). */
export function placeBet(state: BatchState, tenantId: number, request: BetRequest): Outcome {
  const { player, wallet } = playerWallet(state, tenantId, request.user_id, request.currency);
  requireLiveSession(state.session(tenantId, request.session_token), player);
  const earlier = state.bet(tenantId, request.provider_tx_id);
  if (earlier?.status === "tombstone") {
    // The tombstone is its player's: anyone else's bet under that id is a conflict, not a free pass.
    if (earlier.playerId !== player.id) throw tombstoneConflict(request.provider_tx_id);
    // Its ROLL_BACK came first and was answered 200 with no credit; the late bet moves nothing.
    return transfer(player, wallet, request.provider_tx_id, newOperatorTxId());
  }
  if (earlier)
    throw new WalletError("DUPLICATE_CONFLICT", `bet ${request.provider_tx_id} is already recorded`);
  const amount = request.amount;
  if (amount <= 0n) throw new WalletError("BAD_REQUEST", "amount: a BET must stake more than 0 millis");
  if (player.minbet !== null && amount < player.minbet) {
    throw new WalletError("BAD_REQUEST", `amount ${amount} is below the player's minbet ${player.minbet}`);
  }
  const staked = state.staked(player.id, request.action_id);
  if (staked + amount > player.maxbet) {
    throw new WalletError(
      "BAD_REQUEST",
      `bet of ${amount} would bring the round's stake to ${staked + amount}, above the player's maxbet ${player.maxbet}`,
    );
  }
  if (wallet.balance < amount) {
    // 402 carrying the balance as it stands, so the platform can show the player why.
    throw new WalletError("INSUFFICIENT_FUNDS", "insufficient funds", {
      user_id: player.userId,
      provider_tx_id: request.provider_tx_id,
      balance: wallet.balance,
      currency: wallet.currency,
    });
  }
  state.addBet({
    tenantId,
    providerTxId: request.provider_tx_id,
    playerId: player.id,
    roundId: request.action_id,
    game: request.game,
    currency: wallet.currency,
    kind: "BET",
    amount,
    status: "open",
    wonAmount: 0n,
    winCount: 0,
    freeBetGrantId: null,
    rollbackProviderTxId: null,
  });
  state.setStaked(player.id, request.action_id, staked + amount);
  const operatorTxId = newOperatorTxId();
  const anomalies: AnomalyKind[] = [];
  book(
    state,
    { player, wallet, delta: -amount, anomalies, change: { staked: amount, won: 0n } },
    {
      kind: "BET",
      operatorTxId,
      providerTxId: request.provider_tx_id,
      roundId: request.action_id,
      game: request.game,
      betProviderTxId: request.provider_tx_id,
    },
  );
  return withAnomalies(transfer(player, wallet, request.provider_tx_id, operatorTxId), anomalies);
}
