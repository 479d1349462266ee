import { emptyMap, type PersistentMap } from "./persistent-map.ts";

/**
 * One player's wallet as the contract (docs/contract.md) describes it: immutable, so a search can keep
 * the state before every step, and fingerprinted, so it can tell two equal states apart from two paths.
 */
export interface WalletLimits {
  readonly maxbet: bigint;
  readonly minbet: bigint | null;
  /** The player's currency; null when the history does not say (then no currency is refused). */
  readonly currency: string | null;
}

export type BetStatus = "open" | "won" | "rolled_back" | "tombstone";

export interface ModelBet {
  readonly kind: "BET" | "FREE_BET";
  /** What the bet took (0 for a FREE_BET; for a tombstone, what its rollback named). */
  readonly amount: bigint;
  readonly round: string;
  readonly status: BetStatus;
  /** The key of the rollback that first refunded (or tombstoned) it, whose answer later ones get. */
  readonly rollbackKey: string | null;
}

/** The answer stored under an idempotency key, replayed to the same bytes. */
export interface StoredAnswer {
  /** The request's identity: its exact bytes (for an adjustment, the fields the ledger hashes). */
  readonly body: string;
  readonly status: number;
  readonly balance: bigint | null;
}

export interface WalletState {
  readonly limits: WalletLimits;
  readonly balance: bigint;
  /** Free bets granted and not yet used (game and expiry are not modelled). */
  readonly freeBets: number;
  readonly answers: PersistentMap<StoredAnswer>;
  readonly bets: PersistentMap<ModelBet>;
  /** Per round: the stake of the player's live BETs (open or won), what `maxbet` caps. */
  readonly staked: PersistentMap<bigint>;
  /** Per round: the player's FREE_BET keys in the order placed (a FREE_BET_WIN without a bet id picks one). */
  readonly roundFreeBets: PersistentMap<readonly string[]>;
  /** User tokens the history minted or revoked; a token it never named counts as live. */
  readonly tokens: PersistentMap<"live" | "revoked">;
}

export interface WalletOpening {
  balance: bigint;
  maxbet: bigint;
  minbet?: bigint | null;
  currency?: string | null;
  freeBets?: number;
}

export function openWallet(opening: WalletOpening): WalletState {
  return {
    limits: { maxbet: opening.maxbet, minbet: opening.minbet ?? null, currency: opening.currency ?? null },
    balance: opening.balance,
    freeBets: opening.freeBets ?? 0,
    answers: emptyMap((answer) => `${answer.status}/${answer.balance}/${answer.body}`),
    bets: emptyMap((bet) => `${bet.kind}/${bet.amount}/${bet.round}/${bet.status}/${bet.rollbackKey}`),
    staked: emptyMap((amount) => amount.toString()),
    roundFreeBets: emptyMap((keys) => keys.join("\u0000")),
    tokens: emptyMap((status) => status),
  };
}

/** A string equal for two states exactly when they hold the same wallet (up to 64-bit hash collisions). */
export function walletFingerprint(state: WalletState): string {
  return [
    state.balance,
    state.freeBets,
    state.answers.signature,
    state.bets.signature,
    state.staked.signature,
    state.roundFreeBets.signature,
    state.tokens.signature,
  ].join("|");
}
