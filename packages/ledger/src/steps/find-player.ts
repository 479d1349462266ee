import { WalletError } from "@wallet/contracts/errors";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { players } from "../schema/players.ts";

export interface Player {
  id: number;
  tenantId: number;
  userId: string;
  username: string;
  currency: string;
  maxbet: bigint;
  minbet: bigint | null;
  maxwin: bigint | null;
}

/** The columns of a `Player`; `lockPlayerWallet` selects them in its locking join too. */
export const playerColumns = {
  id: players.id,
  tenantId: players.tenantId,
  userId: players.userId,
  username: players.username,
  currency: players.currency,
  maxbet: players.maxbet,
  minbet: players.minbet,
  maxwin: players.maxwin,
};

/** The tenant's player with this `user_id`, or 404: a key of tenant A never reaches B's players. */
export async function findPlayer(tx: Tx, tenantId: number, userId: string): Promise<Player> {
  const [player] = await tx
    .select(playerColumns)
    .from(players)
    .where(and(eq(players.tenantId, tenantId), eq(players.userId, userId)))
    .limit(1);
  if (!player) throw new WalletError("NOT_FOUND", `user ${userId} not found`);
  return player;
}

export async function findPlayerById(tx: Tx, playerId: number): Promise<Player> {
  const [player] = await tx.select(playerColumns).from(players).where(eq(players.id, playerId)).limit(1);
  if (!player) throw new WalletError("NOT_FOUND", "player not found");
  return player;
}
