import { WalletError } from "@wallet/contracts/errors";
import { type Outcome, success } from "../../outcome.ts";
import type { BalanceRead } from "../requests.ts";
import type { BatchState } from "../state.ts";

/** `/balance` by user id: the player's current currency and amount in millis (a session, if sent, must be theirs). */
export function readBalance(state: BatchState, call: BalanceRead): Outcome {
  const { tenantId, request } = call;
  const player = state.player(tenantId, request.user_id);
  if (!player) throw new WalletError("NOT_FOUND", `user ${request.user_id} not found`);
  if (request.session_token !== undefined) {
    const session = state.session(tenantId, request.session_token);
    if (!session || session.playerId !== player.id) throw new WalletError("NOT_FOUND", "session not found");
  }
  const currency = request.currency ?? player.currency;
  const wallet = player.wallets.get(currency);
  if (!wallet) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  return success({ user_id: player.userId, currency, amount: wallet.balance });
}
