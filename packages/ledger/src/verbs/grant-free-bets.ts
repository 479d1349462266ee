import { WalletError } from "@wallet/contracts/errors";
import type { LedgerContext } from "../context.ts";
import { freeBetGrants } from "../schema/free-bet-grants.ts";
import { findPlayer } from "../steps/find-player.ts";
import { withTransaction } from "../transaction.ts";

/** Grants `count` free bets, optionally for one game and until a date. */
export async function grantFreeBets({
  ctx,
  input,
}: {
  ctx: LedgerContext;
  input: { tenantId: number; userId: string; count: number; game?: string; expiresAt?: Date };
}) {
  if (!Number.isInteger(input.count) || input.count < 1)
    throw new WalletError("BAD_REQUEST", "count must be a positive integer");
  return withTransaction(ctx.db, async (tx) => {
    const player = await findPlayer(tx, input.tenantId, input.userId);
    const [grant] = await tx.insert(freeBetGrants).values({
      tenantId: input.tenantId,
      playerId: player.id,
      game: input.game ?? null,
      granted: input.count,
      remaining: input.count,
      expiresAt: input.expiresAt ?? null,
    });
    return { grantId: grant.insertId };
  });
}
