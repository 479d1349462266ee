import { WalletError } from "@wallet/contracts/errors";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "./db.ts";
import { gameSessions } from "./schema/game-sessions.ts";
import type { Player } from "./wallet-ops.ts";

/** Bets need a session that /auth bound to this very player and that has not expired (404 otherwise). */
export async function requireLiveSession(tx: Tx, tenantId: number, sessionToken: string, player: Player) {
  const [session] = await tx
    .select({
      playerId: gameSessions.playerId,
      live: sql<number>`${gameSessions.expiresAt} > CURRENT_TIMESTAMP(3)`,
    })
    .from(gameSessions)
    .where(and(eq(gameSessions.tenantId, tenantId), eq(gameSessions.sessionToken, sessionToken)))
    .limit(1);
  if (!session) throw new WalletError("NOT_FOUND", "session not found");
  if (session.playerId !== player.id)
    throw new WalletError("NOT_FOUND", `session not found for user ${player.userId}`);
  if (Number(session.live) !== 1) throw new WalletError("NOT_FOUND", "session expired");
}
