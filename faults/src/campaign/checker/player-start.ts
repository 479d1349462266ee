import { openWallet, type WalletState } from "@wallet/ledger/testing/wallet-model/state";
import type { Operation } from "../history/operation.ts";

/** A player's wallet when the campaign starts, as the runner created it. */
export interface PlayerStart {
  operatorId: number;
  userId: string;
  /** Opening balance, in millis. */
  balance: bigint;
  maxbet: bigint;
  minbet?: bigint | null;
  /** Free bets granted before the history starts (game and expiry are not modelled). */
  freeBets?: number;
  /** The player's currency; without it no request is refused for its currency. */
  currency?: string | null;
}

/** One player of a tenant: the unit the checker linearizes. */
export const playerKey = (operatorId: number, userId: string) => `${operatorId}/${userId}`;

export const openingState = (start: PlayerStart): WalletState =>
  openWallet({
    balance: start.balance,
    maxbet: start.maxbet,
    minbet: start.minbet ?? null,
    currency: start.currency ?? null,
    freeBets: start.freeBets ?? 0,
  });

export interface PlayerHistory {
  operatorId: number;
  userId: string;
  /** The player's operations, in invocation order. */
  operations: Operation[];
}

/**
 * The history split by player. CLOSE_ROUND and manual closes name a round, not a player, and move no
 * money: they are left to the runner's own checks.
 */
export function historiesByPlayer(history: readonly Operation[]): PlayerHistory[] {
  const players = new Map<string, PlayerHistory>();
  for (const operation of history) {
    if (operation.userId === null || operation.kind === "CLOSE_ROUND" || operation.kind === "manual-close")
      continue;
    const key = playerKey(operation.operatorId, operation.userId);
    const player = players.get(key) ?? {
      operatorId: operation.operatorId,
      userId: operation.userId,
      operations: [],
    };
    player.operations.push(operation);
    players.set(key, player);
  }
  for (const player of players.values()) player.operations.sort(byInvocation);
  return [...players.values()];
}

export const byInvocation = (a: Operation, b: Operation) => a.invokedAt - b.invokedAt || a.id - b.id;
