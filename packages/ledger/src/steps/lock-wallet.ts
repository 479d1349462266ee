import { WalletError } from "@wallet/contracts/errors";
import { tokenHash } from "@wallet/contracts/hash";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { gameSessions } from "../schema/game-sessions.ts";
import { players } from "../schema/players.ts";
import { wallets } from "../schema/wallets.ts";
import { type Player, playerColumns } from "./find-player.ts";

export interface LockedWallet {
  id: number;
  playerId: number;
  currency: string;
  balance: bigint;
  /** The `wallet_seq` of its newest journal line (`append-journal.ts` takes the next). */
  seq: number;
}

/**
 * Locks the player's wallet in `currency` for the rest of the transaction. Every money verb takes
 * this lock first, so one player's callbacks apply one at a time and in the same lock order.
 */
export async function lockWallet(tx: Tx, player: Player, currency: string): Promise<LockedWallet> {
  const [wallet] = await tx
    .select({
      id: wallets.id,
      playerId: wallets.playerId,
      currency: wallets.currency,
      balance: wallets.balance,
      seq: wallets.seq,
    })
    .from(wallets)
    .where(and(eq(wallets.playerId, player.id), eq(wallets.currency, currency)))
    .for("update");
  if (!wallet) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  return wallet;
}

export interface BoundSession {
  playerId: number;
  live: boolean;
}

/**
 * `findPlayer` + `lockWallet` + the session the bet comes through, in one locking statement: every
 * money callback starts here, and each round trip saved is one per callback. The checks, and so
 * the answers, are the same and in the same order: unknown user 404, other currency 400.
 */
export async function lockPlayerWallet(
  tx: Tx,
  tenantId: number,
  userId: string,
  currency: string,
  sessionToken: string,
): Promise<{ player: Player; wallet: LockedWallet; session?: BoundSession }> {
  const [row] = await tx
    .select({
      ...playerColumns,
      walletId: wallets.id,
      balance: wallets.balance,
      walletSeq: wallets.seq,
      sessionPlayerId: gameSessions.playerId,
      sessionLive: sql<number | null>`${gameSessions.expiresAt} > CURRENT_TIMESTAMP(3)`,
    })
    .from(players)
    .leftJoin(wallets, and(eq(wallets.playerId, players.id), eq(wallets.currency, currency)))
    .leftJoin(
      gameSessions,
      and(eq(gameSessions.tenantId, tenantId), eq(gameSessions.sessionToken, tokenHash(sessionToken))),
    )
    .where(and(eq(players.tenantId, tenantId), eq(players.userId, userId)))
    .for("update");
  if (!row) throw new WalletError("NOT_FOUND", `user ${userId} not found`);
  const { walletId, balance, walletSeq, sessionPlayerId, sessionLive, ...player } = row;
  if (walletId === null || balance === null || walletSeq === null) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  const wallet = { id: walletId, playerId: player.id, currency, balance, seq: walletSeq };
  const session =
    sessionPlayerId === null ? undefined : { playerId: sessionPlayerId, live: Number(sessionLive) === 1 };
  return { player, wallet, session };
}
