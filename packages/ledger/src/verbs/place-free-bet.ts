import { WalletError } from "@wallet/contracts/errors";
import { freeBetRequest } from "@wallet/contracts/wallet-request";
import { newOperatorTxId, tombstoneConflict } from "../callback-input.ts";
import { idempotentCallback } from "../idempotency.ts";
import { transferOutcome } from "../outcome.ts";
import { insertBet, lockBet, openRound } from "../steps/bet-records.ts";
import { consumeFreeBet } from "../steps/free-bet-grants.ts";
import { requireLiveSession } from "../steps/live-session.ts";
import { lockPlayerWallet } from "../steps/lock-wallet.ts";

/**
 * `/withdraw` FREE_BET: consumes a granted free bet and never touches cash. Rare next to BET, so it
 * runs alone in its own transaction rather than in the group commit.
 */
export const placeFreeBet = idempotentCallback(freeBetRequest, async (tx, request, input) => {
  const { player, wallet, session } = await lockPlayerWallet(
    tx,
    input.tenantId,
    request.user_id,
    request.currency,
    request.session_token,
  );
  requireLiveSession(session, player);
  const answerWith = (operatorTxId: string) =>
    transferOutcome({
      userId: player.userId,
      operatorTxId,
      providerTxId: request.provider_tx_id,
      newBalance: wallet.balance,
      currency: wallet.currency,
    });
  const earlier = await lockBet(tx, input.tenantId, request.provider_tx_id);
  if (earlier?.status === "tombstone") {
    // The tombstone is its player's: anyone else's bet under that id is a conflict.
    if (earlier.playerId !== player.id) throw tombstoneConflict(request.provider_tx_id);
    // Its ROLL_BACK came first and was answered 200 with no credit; the late bet moves nothing.
    return answerWith(newOperatorTxId());
  }
  if (earlier)
    throw new WalletError("DUPLICATE_CONFLICT", `bet ${request.provider_tx_id} is already recorded`);
  const grantId = await consumeFreeBet(tx, player, request.game);
  if (grantId === undefined) {
    throw new WalletError("INSUFFICIENT_FUNDS", `no free bet available for game ${request.game}`, {
      user_id: player.userId,
      provider_tx_id: request.provider_tx_id,
      balance: wallet.balance,
      currency: wallet.currency,
    });
  }
  await insertBet(tx, {
    tenantId: player.tenantId,
    providerTxId: request.provider_tx_id,
    playerId: player.id,
    roundId: request.action_id,
    game: request.game,
    currency: wallet.currency,
    kind: "FREE_BET",
    amount: 0n,
    status: "open",
    freeBetGrantId: grantId,
  });
  await openRound(tx, player.tenantId, request.action_id, request.game);
  return answerWith(newOperatorTxId());
});
