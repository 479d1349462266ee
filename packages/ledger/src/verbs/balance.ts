import { balanceRequest } from "@wallet/contracts/balance";
import { WalletError } from "@wallet/contracts/errors";
import { and, eq } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import type { Tx } from "../db.ts";
import { answer, type Outcome, parseInput, success } from "../outcome.ts";
import { gameSessions } from "../schema/game-sessions.ts";
import { wallets } from "../schema/wallets.ts";
import { withTransaction } from "../transaction.ts";
import { findPlayer, findPlayerById, type Player } from "../wallet-ops.ts";

export interface BalanceInput {
  tenantId: number;
  body: unknown;
}

/** `/balance`: the player's current currency and amount in millis. */
export async function balance({ ctx, input }: { ctx: LedgerContext; input: BalanceInput }): Promise<Outcome> {
  return answer(async () => {
    const request = parseInput(balanceRequest, input.body);
    return withTransaction(ctx.db, async (tx) => {
      const player = await resolvePlayer(tx, input.tenantId, request.user_id, request.session_token);
      const currency = request.currency ?? player.currency;
      const [wallet] = await tx
        .select({ balance: wallets.balance })
        .from(wallets)
        .where(and(eq(wallets.playerId, player.id), eq(wallets.currency, currency)));
      if (!wallet) {
        throw new WalletError(
          "BAD_REQUEST",
          `currency ${currency} does not match the player's currency ${player.currency}`,
        );
      }
      return success({ user_id: player.userId, currency, amount: wallet.balance });
    });
  });
}

async function resolvePlayer(
  tx: Tx,
  tenantId: number,
  userId?: string,
  sessionToken?: string,
): Promise<Player> {
  const byUser = userId === undefined ? undefined : await findPlayer(tx, tenantId, userId);
  if (sessionToken === undefined) {
    if (!byUser) throw new WalletError("BAD_REQUEST", "user_id or session_token is required");
    return byUser;
  }
  const [session] = await tx
    .select({ playerId: gameSessions.playerId })
    .from(gameSessions)
    .where(and(eq(gameSessions.tenantId, tenantId), eq(gameSessions.sessionToken, sessionToken)))
    .limit(1);
  if (!session || (byUser && byUser.id !== session.playerId))
    throw new WalletError("NOT_FOUND", "session not found");
  return byUser ?? findPlayerById(tx, session.playerId);
}
