import { balanceRequest } from "@wallet/contracts/balance";
import { WalletError } from "@wallet/contracts/errors";
import { tokenHash } from "@wallet/contracts/hash";
import { and, eq } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import type { Tx } from "../db.ts";
import { answer, type Outcome, parseInput, success } from "../outcome.ts";
import { gameSessions } from "../schema/game-sessions.ts";
import { wallets } from "../schema/wallets.ts";
import { findPlayerById, type Player } from "../steps/find-player.ts";
import { withTransaction } from "../transaction.ts";

/** A `/balance` body as received, and the tenant behind its key. */
export interface BalanceInput {
  tenantId: number;
  body: unknown;
}

/** `/balance` with only a `session_token` (no `user_id`): the session bound by /auth names the player. */
export async function balanceBySession({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: BalanceInput;
}): Promise<Outcome> {
  return answer(async () => {
    const request = parseInput(balanceRequest, input.body);
    return withTransaction(ctx.db, async (tx) => {
      const player = await sessionPlayer(tx, input.tenantId, request.session_token ?? "");
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

async function sessionPlayer(tx: Tx, tenantId: number, sessionToken: string): Promise<Player> {
  const [session] = await tx
    .select({ playerId: gameSessions.playerId })
    .from(gameSessions)
    .where(and(eq(gameSessions.tenantId, tenantId), eq(gameSessions.sessionToken, tokenHash(sessionToken))))
    .limit(1);
  if (!session) throw new WalletError("NOT_FOUND", "session not found");
  return findPlayerById(tx, session.playerId);
}
