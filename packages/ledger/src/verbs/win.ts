import { WalletError } from "@wallet/contracts/errors";
import type { FreeBetWinRequest, WinRequest } from "@wallet/contracts/wallet-request";
import { eq, sql } from "drizzle-orm";
import { type BetRow, lockBet } from "../bet-records.ts";
import { newOperatorTxId } from "../callback-input.ts";
import type { Tx } from "../db.ts";
import type { Outcome } from "../outcome.ts";
import { bets } from "../schema/bets.ts";
import { appendJournal, credit, lockPlayerWallet, type Player } from "../wallet-ops.ts";
import { transferResponse } from "./withdraw.ts";

/**
 * WIN and FREE_BET_WIN credit the player. No live session is needed: a win settles a bet the
 * player already placed, even if the session expired meanwhile.
 */
export async function creditWin(
  tx: Tx,
  tenantId: number,
  request: WinRequest | FreeBetWinRequest,
): Promise<Outcome> {
  const { player, wallet } = await lockPlayerWallet(tx, tenantId, request.user_id, request.currency);
  const bet = request.withdraw_provider_tx_id
    ? await requireWinnableBet(tx, tenantId, player, request)
    : undefined;
  const operatorTxId = newOperatorTxId();
  let newBalance = wallet.balance;
  if (request.amount > 0n) {
    newBalance = await credit(tx, wallet, request.amount);
    await appendJournal(tx, player, wallet, {
      kind: request.action,
      amount: request.amount,
      balanceAfter: newBalance,
      operatorTxId,
      providerTxId: request.provider_tx_id,
      roundId: request.action_id,
      game: request.game,
      betId: bet?.id,
    });
  }
  if (bet) {
    await tx
      .update(bets)
      .set({
        status: "won",
        wonAmount: sql`${bets.wonAmount} + ${request.amount}`,
        winCount: sql`${bets.winCount} + 1`,
      })
      .where(eq(bets.id, bet.id));
  }
  return transferResponse(player, wallet, request, operatorTxId, newBalance);
}

/** The bet a win settles: this player's, this round's, of the matching kind, and not refunded. */
async function requireWinnableBet(
  tx: Tx,
  tenantId: number,
  player: Player,
  request: WinRequest | FreeBetWinRequest,
): Promise<BetRow> {
  const betId = request.withdraw_provider_tx_id ?? "";
  const bet = await lockBet(tx, tenantId, betId);
  if (!bet || bet.status === "tombstone") {
    const why = bet ? "was rolled back before it arrived" : "is unknown";
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betId} ${why}`);
  }
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
