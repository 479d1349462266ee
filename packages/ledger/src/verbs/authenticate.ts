import { authRequest } from "@wallet/contracts/auth";
import { WalletError } from "@wallet/contracts/errors";
import { tokenHash } from "@wallet/contracts/hash";
import { and, eq, sql } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import { answer, type Outcome, parseInput, success } from "../outcome.ts";
import { gameSessions } from "../schema/game-sessions.ts";
import { userTokens } from "../schema/user-tokens.ts";
import { wallets } from "../schema/wallets.ts";
import { findPlayerById } from "../steps/find-player.ts";
import { readBalance } from "../steps/wallet-balance.ts";
import { withTransaction } from "../transaction.ts";

export interface AuthInput {
  tenantId: number;
  body: unknown;
}

/**
 * `/auth`: exchanges the operator's `user_token` for the player's info and binds the platform's
 * `session_token` to that player, so later bets can prove which player they are for.
 */
export async function authenticate({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: AuthInput;
}): Promise<Outcome> {
  return answer(async () => {
    const request = parseInput(authRequest, input.body);
    return withTransaction(ctx.db, async (tx) => {
      const [token] = await tx
        .select({
          playerId: userTokens.playerId,
          live: sql<number>`${userTokens.expiresAt} > CURRENT_TIMESTAMP(3)`,
        })
        .from(userTokens)
        .where(
          and(eq(userTokens.token, tokenHash(request.user_token)), eq(userTokens.tenantId, input.tenantId)),
        )
        .limit(1);
      if (!token) throw new WalletError("NOT_FOUND", "user_token not found");
      if (Number(token.live) !== 1) throw new WalletError("NOT_FOUND", "user_token expired");
      const player = await findPlayerById(tx, token.playerId);
      if (player.currency !== request.currency) {
        throw new WalletError(
          "BAD_REQUEST",
          `currency ${request.currency} does not match the player's currency ${player.currency}`,
        );
      }

      const [bound] = await tx
        .select({ playerId: gameSessions.playerId })
        .from(gameSessions)
        .where(
          and(
            eq(gameSessions.tenantId, input.tenantId),
            eq(gameSessions.sessionToken, tokenHash(request.session_token)),
          ),
        )
        .for("update");
      if (bound && bound.playerId !== player.id) {
        throw new WalletError("NOT_FOUND", "session_token is bound to another player");
      }
      const expiresAt = sql`DATE_ADD(CURRENT_TIMESTAMP(3), INTERVAL ${ctx.config.sessionTtlSeconds} SECOND)`;
      await tx
        .insert(gameSessions)
        .values({
          tenantId: input.tenantId,
          sessionToken: tokenHash(request.session_token),
          playerId: player.id,
          userToken: tokenHash(request.user_token),
          currency: player.currency,
          expiresAt,
        })
        .onDuplicateKeyUpdate({ set: { expiresAt } });

      const [wallet] = await tx
        .select({ id: wallets.id })
        .from(wallets)
        .where(and(eq(wallets.playerId, player.id), eq(wallets.currency, player.currency)));
      if (!wallet) throw new Error(`player ${player.userId} has no ${player.currency} wallet`);
      return success({
        user_id: player.userId,
        username: player.username,
        balance: await readBalance(tx, wallet.id),
        currency: player.currency,
        maxbet: player.maxbet,
        minbet: player.minbet ?? undefined,
        maxwin: player.maxwin ?? undefined,
      });
    });
  });
}
