import { tokenHash } from "@wallet/contracts/hash";
import { newUserToken } from "@wallet/contracts/user-token";
import { eq, sql } from "drizzle-orm";
import type { LedgerContext } from "../context.ts";
import { userTokens } from "../schema/user-tokens.ts";
import { findPlayer } from "../steps/find-player.ts";
import { withTransaction } from "../transaction.ts";

/** Mints the `user_token` the platform will present to `/auth` (what a launch hands out). */
export async function mintUserToken({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string; ttlSeconds: number };
}) {
  return withTransaction(ctx.db, async (tx) => {
    const player = await findPlayer(tx, input.tenantId, input.userId);
    const token = newUserToken(player.userId);
    await tx.insert(userTokens).values({
      token: tokenHash(token),
      tenantId: input.tenantId,
      playerId: player.id,
      expiresAt: sql`DATE_ADD(CURRENT_TIMESTAMP(3), INTERVAL ${input.ttlSeconds} SECOND)`,
    });
    const [row] = await tx
      .select({ expiresAt: userTokens.expiresAt })
      .from(userTokens)
      .where(eq(userTokens.token, tokenHash(token)));
    return { userToken: token, expiresAt: row?.expiresAt ?? new Date() };
  });
}
