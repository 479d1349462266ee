import { WalletError } from "@wallet/contracts/errors";
import type { FreeBetWinRequest, WinRequest } from "@wallet/contracts/wallet-request";
import type { AnomalyKind } from "../../anomalies.ts";
import { newOperatorTxId } from "../../callback-input.ts";
import type { Outcome } from "../../outcome.ts";
import { unknownBetMessage } from "../../unknown-bet.ts";
import type { BatchPlayer, BatchState, BetState } from "../state.ts";
import { book, playerWallet, requireRoom, transfer, withAnomalies } from "./booking.ts";

/**
 * WIN and FREE_BET_WIN credit the player. No live session is needed: a win settles a bet the
 * player already placed, even if the session expired meanwhile.
 */
export function creditWin(
  state: BatchState,
  tenantId: number,
  request: WinRequest | FreeBetWinRequest,
): Outcome {
  const { player, wallet } = playerWallet(state, tenantId, request.user_id, request.currency);
  const bet = request.withdraw_provider_tx_id
    ? winnableBet(state, tenantId, player, request)
    : roundFreeBet(state, player, request);
  const anomalies: AnomalyKind[] = [];
  if (player.maxwin !== null && request.amount > player.maxwin) anomalies.push("win_above_maxwin");
  if (bet.winCount > 0) anomalies.push("second_win");
  requireRoom(wallet, request.amount);
  const operatorTxId = newOperatorTxId();
  if (request.amount > 0n) {
    book(
      state,
      { player, wallet, delta: request.amount, anomalies, change: { staked: 0n, won: request.amount } },
      {
        kind: request.action,
        operatorTxId,
        providerTxId: request.provider_tx_id,
        roundId: request.action_id,
        game: request.game,
        betId: bet.id,
        betProviderTxId: bet.providerTxId,
      },
    );
  }
  bet.status = "won";
  bet.wonAmount += request.amount;
  bet.winCount += 1;
  state.changed(bet);
  return withAnomalies(transfer(player, wallet, request.provider_tx_id, operatorTxId), anomalies);
}

/**
 * The FREE_BET a FREE_BET_WIN without `withdraw_provider_tx_id` settles: the player's in that round,
 * not refunded (an unsettled one first). Without one the win is refused like a WIN without its bet:
 * credited as cash, it would be money from nothing (docs/contract-decisions.md).
 */
function roundFreeBet(
  state: BatchState,
  player: BatchPlayer,
  request: WinRequest | FreeBetWinRequest,
): BetState {
  const candidates = [...state.bets.values()].filter(
    (bet) =>
      bet.playerId === player.id &&
      bet.roundId === request.action_id &&
      bet.kind === "FREE_BET" &&
      (bet.status === "open" || bet.status === "won"),
  );
  const bet = candidates.find((candidate) => candidate.status === "open") ?? candidates[0];
  if (!bet) {
    throw new WalletError(
      "BAD_REQUEST",
      `FREE_BET_WIN names no withdraw_provider_tx_id and user ${request.user_id} has no FREE_BET in round ${request.action_id}`,
    );
  }
  return bet;
}

/** The bet a win settles: this player's, this round's, of the matching kind, and not refunded. */
function winnableBet(
  state: BatchState,
  tenantId: number,
  player: BatchPlayer,
  request: WinRequest | FreeBetWinRequest,
): BetState {
  const betId = request.withdraw_provider_tx_id ?? "";
  const bet = state.bet(tenantId, betId);
  if (!bet)
    throw new WalletError("BAD_REQUEST", unknownBetMessage(betId, request.action_id, request.user_id));
  if (bet.status === "tombstone")
    throw new WalletError(
      "BAD_REQUEST",
      `withdraw_provider_tx_id: bet ${betId} was rolled back before it arrived`,
    );
  if (bet.playerId !== player.id) {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betId} belongs to another player`);
  }
  if (bet.roundId !== request.action_id) {
    throw new WalletError("BAD_REQUEST", `action_id: bet ${betId} was placed in round ${bet.roundId}`);
  }
  const expectedKind = request.action === "WIN" ? "BET" : "FREE_BET";
  if (bet.kind !== expectedKind) {
    throw new WalletError(
      "BAD_REQUEST",
      `${request.action} settles a ${expectedKind}, but bet ${betId} is a ${bet.kind}`,
    );
  }
  if (bet.status === "rolled_back") {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betId} was rolled back`);
  }
  return bet;
}
