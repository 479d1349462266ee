import { WalletError } from "@wallet/contracts/errors";
import { balanceRoomProblem } from "@wallet/contracts/money";
import { adjustmentRequest } from "@wallet/contracts/operator-api";
import { type CallbackInput, newOperatorTxId } from "../callback-input.ts";
import type { LedgerContext } from "../context.ts";
import { runIdempotent } from "../idempotency.ts";
import { answer, type Outcome, parseInput, success } from "../outcome.ts";
import { appendJournal } from "../steps/append-journal.ts";
import { findPlayer } from "../steps/find-player.ts";
import { lockWallet } from "../steps/lock-wallet.ts";
import { credit, debit } from "../steps/wallet-balance.ts";

/**
 * The idempotency key space of adjustments, apart from the platform's transaction ids (which are
 * the platform's, and never carry this prefix in practice).
 */
export const adjustmentKey = (reference: string) => `operator-adjustment:${reference}`;

/**
 * A cashier credit or debit: idempotent on `reference` (a retry replays the first answer, a
 * different body under the same reference is 409), debits only what the balance covers (402).
 * It runs on the player's ledger partition, so it never interleaves with their callbacks.
 */
export async function adjustBalance({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: CallbackInput;
}): Promise<Outcome> {
  return answer(async () => {
    const request = parseInput(adjustmentRequest, input.body);
    const key = {
      tenantId: input.tenantId,
      providerTxId: adjustmentKey(request.reference),
      action: "ADJUSTMENT",
      bodySha256: input.bodySha256,
    };
    return runIdempotent(ctx, key, async (tx) => {
      const player = await findPlayer(tx, input.tenantId, request.user_id);
      const wallet = await lockWallet(tx, player, player.currency);
      const problem = request.amount > 0n ? balanceRoomProblem(wallet.balance, request.amount) : undefined;
      if (problem) throw new WalletError("BAD_REQUEST", `amount: ${problem}`);
      const newBalance =
        request.amount > 0n
          ? await credit(tx, wallet, request.amount)
          : await debit(tx, wallet, -request.amount);
      if (newBalance === undefined) {
        throw new WalletError("INSUFFICIENT_FUNDS", "insufficient funds for this debit", {
          balance: wallet.balance,
          currency: wallet.currency,
        });
      }
      const operatorTxId = newOperatorTxId();
      await appendJournal(tx, player, wallet, {
        kind: "ADJUSTMENT",
        amount: request.amount,
        balanceAfter: newBalance,
        operatorTxId,
        providerTxId: key.providerTxId,
      });
      return success({
        user_id: player.userId,
        operator_tx_id: operatorTxId,
        reference: request.reference,
        amount: request.amount,
        reason: request.reason,
        new_balance: newBalance,
        currency: wallet.currency,
      });
    });
  });
}
