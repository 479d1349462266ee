import { WalletError } from "@wallet/contracts/errors";
import type { Player } from "./find-player.ts";
import type { BoundSession } from "./lock-wallet.ts";

/**
 * Bets need a session that /auth bound to this very player and that has not expired (404
 * otherwise). `lockPlayerWallet` reads the session in the same statement as the wallet.
 */
export function requireLiveSession(session: BoundSession | undefined, player: Player): void {
  if (!session) throw new WalletError("NOT_FOUND", "session not found");
  if (session.playerId !== player.id)
    throw new WalletError("NOT_FOUND", `session not found for user ${player.userId}`);
  if (!session.live) throw new WalletError("NOT_FOUND", "session expired");
}
