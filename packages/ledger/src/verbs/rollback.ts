import { WalletError } from "@wallet/contracts/errors";
import type { RollbackRequest } from "@wallet/contracts/wallet-request";
import { eq } from "drizzle-orm";
import { insertBet, lockBet } from "../bet-records.ts";
import { newOperatorTxId } from "../callback-input.ts";
import type { Tx } from "../db.ts";
import { restoreFreeBet } from "../free-bets.ts";
import { findRecord } from "../idempotency.ts";
import type { Outcome } from "../outcome.ts";
import { bets } from "../schema/bets.ts";
import { appendJournal, credit, lockPlayerWallet } from "../wallet-ops.ts";
import { transferResponse } from "./withdraw.ts";

/**
 * ROLL_BACK refunds the original bet's amount, once per bet whatever the rollback's own id.
 * A rollback for a bet we never saw leaves a tombstone, so the bet arriving late moves nothing.
 */
export async function refundBet(tx: Tx, tenantId: number, request: RollbackRequest): Promise<Outcome> {
  const { player, wallet } = await lockPlayerWallet(tx, tenantId, request.user_id, request.currency);
  const betTxId = request.withdraw_provider_tx_id;
  const bet = await lockBet(tx, tenantId, betTxId);

  if (!bet) {
    await insertBet(tx, {
      tenantId,
      providerTxId: betTxId,
      playerId: player.id,
      roundId: request.action_id,
      game: request.game,
      currency: wallet.currency,
      kind: "BET",
      amount: request.amount,
      status: "tombstone",
      rollbackProviderTxId: request.provider_tx_id,
    });
    return transferResponse(player, wallet, request, newOperatorTxId(), wallet.balance);
  }
  if (bet.playerId !== player.id) {
    throw new WalletError("BAD_REQUEST", `withdraw_provider_tx_id: bet ${betTxId} belongs to another player`);
  }
  if (bet.status === "rolled_back" || bet.status === "tombstone") {
    return firstRollbackAnswer(tx, tenantId, bet.rollbackProviderTxId);
  }
  if (bet.status === "won") {
    throw new WalletError(
      "BAD_REQUEST",
      `withdraw_provider_tx_id: bet ${betTxId} already has a WIN and cannot be rolled back`,
    );
  }
  if (request.amount !== bet.amount) {
    throw new WalletError(
      "BAD_REQUEST",
      `amount ${request.amount} differs from bet ${betTxId}'s amount ${bet.amount}`,
    );
  }

  const operatorTxId = newOperatorTxId();
  let newBalance = wallet.balance;
  if (bet.amount > 0n) {
    newBalance = await credit(tx, wallet, bet.amount);
    await appendJournal(tx, player, wallet, {
      kind: "ROLL_BACK",
      amount: bet.amount,
      balanceAfter: newBalance,
      operatorTxId,
      providerTxId: request.provider_tx_id,
      roundId: bet.roundId,
      game: bet.game,
      betId: bet.id,
    });
  }
  if (bet.freeBetGrantId !== null) await restoreFreeBet(tx, bet.freeBetGrantId);
  await tx
    .update(bets)
    .set({ status: "rolled_back", rollbackProviderTxId: request.provider_tx_id })
    .where(eq(bets.id, bet.id));
  return transferResponse(player, wallet, request, operatorTxId, newBalance);
}

/** A bet is refunded once: later rollbacks under new ids get the first rollback's answer. */
async function firstRollbackAnswer(
  tx: Tx,
  tenantId: number,
  firstRollbackTxId: string | null,
): Promise<Outcome> {
  const record = firstRollbackTxId ? await findRecord(tx, tenantId, firstRollbackTxId) : undefined;
  if (!record) throw new Error(`rolled-back bet has no stored rollback answer (${firstRollbackTxId})`);
  return { status: record.status, body: record.response, replayed: true };
}
