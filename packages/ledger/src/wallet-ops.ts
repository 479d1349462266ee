import { WalletError } from "@wallet/contracts/errors";
import { tokenHash } from "@wallet/contracts/hash";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Tx } from "./db.ts";
import { gameSessions } from "./schema/game-sessions.ts";
import { type JournalKind, journalEntries } from "./schema/journal-entries.ts";
import { players } from "./schema/players.ts";
import { wallets } from "./schema/wallets.ts";

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

export interface LockedWallet {
  id: number;
  playerId: number;
  currency: string;
  balance: bigint;
}

const playerColumns = {
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
 * `findPlayer` + `lockWallet` (+ the session a bet comes through) in one locking statement: every
 * money callback starts here, and each round trip saved is one per callback. The checks, and so
 * the answers, are the same and in the same order: unknown user 404, other currency 400.
 */
export async function lockPlayerWallet(
  tx: Tx,
  tenantId: number,
  userId: string,
  currency: string,
  sessionToken?: string,
): Promise<{ player: Player; wallet: LockedWallet; session?: BoundSession }> {
  const playerAndWallet = {
    ...playerColumns,
    walletId: wallets.id,
    balance: wallets.balance,
  };
  const walletJoin = and(eq(wallets.playerId, players.id), eq(wallets.currency, currency));
  const playerWhere = and(eq(players.tenantId, tenantId), eq(players.userId, userId));
  // Two shapes rather than a join `ON FALSE`: MariaDB scans (and, FOR UPDATE, locks) the whole
  // joined table for such a condition, which made every WIN wait for every in-flight BET.
  const [row] =
    sessionToken === undefined
      ? await tx
          .select({
            ...playerAndWallet,
            sessionPlayerId: sql<number | null>`NULL`,
            sessionLive: sql<number | null>`NULL`,
          })
          .from(players)
          .leftJoin(wallets, walletJoin)
          .where(playerWhere)
          .for("update")
      : await tx
          .select({
            ...playerAndWallet,
            sessionPlayerId: gameSessions.playerId,
            sessionLive: sql<number | null>`${gameSessions.expiresAt} > CURRENT_TIMESTAMP(3)`,
          })
          .from(players)
          .leftJoin(wallets, walletJoin)
          .leftJoin(
            gameSessions,
            and(eq(gameSessions.tenantId, tenantId), eq(gameSessions.sessionToken, tokenHash(sessionToken))),
          )
          .where(playerWhere)
          .for("update");
  if (!row) throw new WalletError("NOT_FOUND", `user ${userId} not found`);
  const { walletId, balance, sessionPlayerId, sessionLive, ...player } = row;
  if (walletId === null || balance === null) {
    throw new WalletError(
      "BAD_REQUEST",
      `currency ${currency} does not match the player's currency ${player.currency}`,
    );
  }
  const wallet = { id: walletId, playerId: player.id, currency, balance };
  const session =
    sessionPlayerId === null ? undefined : { playerId: sessionPlayerId, live: Number(sessionLive) === 1 };
  return { player, wallet, session };
}

/**
 * Debits only when the balance covers it (conditional SQL); undefined means insufficient funds.
 * The new balance is computed, not read back: the wallet row is locked since `lockPlayerWallet`
 * read it, so nothing else can have changed it (one statement fewer per callback).
 */
export async function debit(tx: Tx, wallet: LockedWallet, amount: bigint): Promise<bigint | undefined> {
  const [result] = await tx
    .update(wallets)
    .set({ balance: sql`${wallets.balance} - ${amount}`, updatedAt: sql`CURRENT_TIMESTAMP(3)` })
    .where(and(eq(wallets.id, wallet.id), gte(wallets.balance, amount)));
  if (result.affectedRows !== 1) return undefined;
  return wallet.balance - amount;
}

/** Credits the locked wallet; the new balance is computed as in `debit`. */
export async function credit(tx: Tx, wallet: LockedWallet, amount: bigint): Promise<bigint> {
  const [result] = await tx
    .update(wallets)
    .set({ balance: sql`${wallets.balance} + ${amount}`, updatedAt: sql`CURRENT_TIMESTAMP(3)` })
    .where(eq(wallets.id, wallet.id));
  if (result.affectedRows !== 1) throw new Error(`wallet ${wallet.id} vanished inside its own transaction`);
  return wallet.balance + amount;
}

/** The balance as the database holds it after this transaction's own changes. */
export async function readBalance(tx: Tx, walletId: number): Promise<bigint> {
  const [row] = await tx.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.id, walletId));
  if (!row) throw new Error(`wallet ${walletId} vanished inside its own transaction`);
  return row.balance;
}

export interface JournalLine {
  kind: JournalKind;
  /** Signed: credits positive, debits negative. */
  amount: bigint;
  balanceAfter: bigint;
  operatorTxId: string;
  providerTxId?: string;
  roundId?: string;
  game?: string;
  betId?: number;
}

export async function appendJournal(
  tx: Tx,
  player: Player,
  wallet: LockedWallet,
  line: JournalLine,
): Promise<void> {
  await tx.insert(journalEntries).values({
    tenantId: player.tenantId,
    playerId: player.id,
    walletId: wallet.id,
    currency: wallet.currency,
    ...line,
  });
}
