import { WalletError } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import { balanceRoomProblem } from "@wallet/contracts/money";
import { lateEventId } from "@wallet/contracts/side-effects";
import { type AnomalyKind, anomalyMark } from "../../anomalies.ts";
import { type Outcome, transferOutcome } from "../../outcome.ts";
import { everyTopic } from "../../schema/outbox.ts";
import type { BatchPlayer, BatchState, BatchWallet, JournalLineFields } from "../state.ts";

// What every money rule shares: the player's wallet, the journal line with its anomalies (and a late
// line's owed event), the room a credit needs, and the transfer answer.

/** The player and their wallet in the request's currency: 404 for an unknown user, 400 for another currency. */
export function playerWallet(
  state: BatchState,
  tenantId: number,
  userId: string,
  currency: string,
): { player: BatchPlayer; wallet: BatchWallet } {
  const player = state.player(tenantId, userId);
  if (!player) throw new WalletError("NOT_FOUND", `user ${userId} not found`);
  const wallet = player.wallets.get(currency);
  if (!wallet) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  return { player, wallet };
}

export const transfer = (
  player: BatchPlayer,
  wallet: BatchWallet,
  providerTxId: string,
  operatorTxId: string,
) =>
  transferOutcome({
    userId: player.userId,
    operatorTxId,
    providerTxId,
    newBalance: wallet.balance,
    currency: wallet.currency,
  });

/**
 * Journals a money line with its anomalies. A line into a round already closed is booked as the
 * platform sent it (refused, a win would be lost for good, and a bet the close lists would stand
 * unmatched), marked `after_close`, and owes the round's late event in the same transaction: the
 * round's effects again for this line's `change` alone, and the round re-reconciled and re-reported.
 */
export function book(
  state: BatchState,
  money: {
    player: BatchPlayer;
    wallet: BatchWallet;
    delta: bigint;
    anomalies: AnomalyKind[];
    change: { staked: bigint; won: bigint };
  },
  line: JournalLineFields,
): void {
  const { player, wallet, anomalies, change } = money;
  const { tenantId } = player;
  if (state.isClosed(tenantId, line.roundId)) anomalies.push("after_close");
  state.move(player, wallet, money.delta, { ...line, anomaly: anomalyMark(anomalies) });
  if (!anomalies.includes("after_close")) return;
  const eventId = lateEventId(tenantId, line.roundId, line.operatorTxId);
  const payload = stringifyJson({
    eventId,
    tenantId,
    roundId: line.roundId,
    game: line.game,
    providerTxId: line.providerTxId,
    late: {
      operatorTxId: line.operatorTxId,
      playerId: player.id,
      currency: wallet.currency,
      staked: change.staked.toString(),
      won: change.won.toString(),
    },
  });
  state.owe({ tenantId, topic: everyTopic, eventId, payload });
}

/** A credit that would take the balance past what JSON carries exactly is refused, stored like any refusal. */
export function requireRoom(wallet: BatchWallet, amount: bigint): void {
  const problem = balanceRoomProblem(wallet.balance, amount);
  if (problem) throw new WalletError("BAD_REQUEST", `amount: ${problem}`);
}

export function withAnomalies(outcome: Outcome, anomalies: AnomalyKind[]): Outcome {
  return anomalies.length > 0 ? { ...outcome, anomalies } : outcome;
}
