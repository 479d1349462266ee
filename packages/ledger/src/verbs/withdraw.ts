import { WalletError } from "@wallet/contracts/errors";
import { type BetRequest, type FreeBetRequest, withdrawRequest } from "@wallet/contracts/wallet-request";
import { insertBet, lockBet, openRound, stakedInRound } from "../bet-records.ts";
import { type CallbackInput, newOperatorTxId } from "../callback-input.ts";
import type { LedgerContext } from "../context.ts";
import type { Tx } from "../db.ts";
import { consumeFreeBet } from "../free-bets.ts";
import { keyOf, runIdempotent } from "../idempotency.ts";
import { answer, type Outcome, parseInput, success } from "../outcome.ts";
import { requireLiveSession } from "../sessions.ts";
import { appendJournal, debit, type LockedWallet, lockPlayerWallet, type Player } from "../wallet-ops.ts";

/** `/withdraw`: BET debits real money; FREE_BET consumes a granted free bet and never touches cash. */
export async function withdraw({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: CallbackInput;
}): Promise<Outcome> {
  return answer(async () => {
    const request = parseInput(withdrawRequest, input.body);
    return runIdempotent(ctx, keyOf(input, request), async (tx) => {
      const { player, wallet, session } = await lockPlayerWallet(
        tx,
        input.tenantId,
        request.user_id,
        request.currency,
        request.session_token,
      );
      requireLiveSession(session, player);
      const earlier = await lockBet(tx, input.tenantId, request.provider_tx_id);
      if (earlier?.status === "tombstone") {
        // Its ROLL_BACK came first and was answered 200 with no credit; the late bet moves nothing.
        return transferResponse(player, wallet, request, newOperatorTxId(), wallet.balance);
      }
      if (earlier)
        throw new WalletError("DUPLICATE_CONFLICT", `bet ${request.provider_tx_id} is already recorded`);
      return request.action === "BET"
        ? placeBet(tx, player, wallet, request)
        : placeFreeBet(tx, player, wallet, request);
    });
  });
}

async function placeBet(tx: Tx, player: Player, wallet: LockedWallet, request: BetRequest): Promise<Outcome> {
  const amount = request.amount;
  if (amount <= 0n) throw new WalletError("BAD_REQUEST", "amount: a BET must stake more than 0 millis");
  if (player.minbet !== null && amount < player.minbet) {
    throw new WalletError("BAD_REQUEST", `amount ${amount} is below the player's minbet ${player.minbet}`);
  }
  const staked = await stakedInRound(tx, player.id, request.action_id);
  if (staked + amount > player.maxbet) {
    throw new WalletError(
      "BAD_REQUEST",
      `bet of ${amount} would bring the round's stake to ${staked + amount}, above the player's maxbet ${player.maxbet}`,
    );
  }
  const newBalance = await debit(tx, wallet, amount);
  if (newBalance === undefined) {
    throw insufficientFunds("insufficient funds", player, wallet, request);
  }
  const operatorTxId = newOperatorTxId();
  const betId = await insertBet(tx, {
    tenantId: player.tenantId,
    providerTxId: request.provider_tx_id,
    playerId: player.id,
    roundId: request.action_id,
    game: request.game,
    currency: wallet.currency,
    kind: "BET",
    amount,
    status: "open",
  });
  await openRound(tx, player.tenantId, request.action_id, request.game);
  await appendJournal(tx, player, wallet, {
    kind: "BET",
    amount: -amount,
    balanceAfter: newBalance,
    operatorTxId,
    providerTxId: request.provider_tx_id,
    roundId: request.action_id,
    game: request.game,
    betId,
  });
  return transferResponse(player, wallet, request, operatorTxId, newBalance);
}

async function placeFreeBet(
  tx: Tx,
  player: Player,
  wallet: LockedWallet,
  request: FreeBetRequest,
): Promise<Outcome> {
  const grantId = await consumeFreeBet(tx, player, request.game);
  if (grantId === undefined) {
    throw insufficientFunds(`no free bet available for game ${request.game}`, player, wallet, request);
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
  return transferResponse(player, wallet, request, newOperatorTxId(), wallet.balance);
}

/** 402 carrying the balance as it stands, so the platform can show the player why. */
function insufficientFunds(
  message: string,
  player: Player,
  wallet: LockedWallet,
  request: { provider_tx_id: string },
) {
  return new WalletError("INSUFFICIENT_FUNDS", message, {
    user_id: player.userId,
    provider_tx_id: request.provider_tx_id,
    balance: wallet.balance,
    currency: wallet.currency,
  });
}

export function transferResponse(
  player: Player,
  wallet: LockedWallet,
  request: { provider_tx_id: string },
  operatorTxId: string,
  newBalance: bigint,
): Outcome {
  return success({
    user_id: player.userId,
    operator_tx_id: operatorTxId,
    provider_tx_id: request.provider_tx_id,
    new_balance: newBalance,
    currency: wallet.currency,
  });
}
