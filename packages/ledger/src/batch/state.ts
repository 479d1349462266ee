import { tokenHash } from "@wallet/contracts/hash";
import type { BetStatus, betKinds } from "../schema/bets.ts";
import type { JournalKind } from "../schema/journal-entries.ts";
import type { Player } from "../steps/find-player.ts";
import type { CloseArraysStored } from "./requests.ts";

/**
 * A map key for a tenant's identifier. The id columns compare byte for byte (VARBINARY,
 * `schema/columns.ts`), so the batch's keys are the ids exactly as sent: `X` and `X ` are two ids
 * here and to the unique keys alike.
 */
export const idKey = (tenantId: number, id: string) => `${tenantId} ${id}`;
const stakeKey = (playerId: number, roundId: string) => `${playerId} ${roundId}`;

export interface BatchWallet {
  id: number;
  currency: string;
  balance: bigint;
  /** The `wallet_seq` of its newest journal line: each line this batch books takes the next. */
  seq: number;
}
export interface BatchPlayer extends Player {
  wallets: Map<string, BatchWallet>;
}
export interface StoredRecord {
  bodySha256: string;
  status: number;
  response: string;
}
/** A bet as read (with its id) or as this batch inserts it (without one, until the insert). */
export interface BetState {
  id?: number;
  tenantId: number;
  providerTxId: string;
  playerId: number;
  roundId: string;
  game: string;
  currency: string;
  kind: (typeof betKinds)[number];
  amount: bigint;
  status: BetStatus;
  wonAmount: bigint;
  winCount: number;
  freeBetGrantId: number | null;
  rollbackProviderTxId: string | null;
}
export interface JournalRow {
  tenantId: number;
  playerId: number;
  walletId: number;
  currency: string;
  kind: JournalKind;
  amount: bigint;
  balanceAfter: bigint;
  walletSeq: number;
  operatorTxId: string;
  providerTxId: string;
  roundId: string;
  game: string;
  /** The bet this line belongs to: its row id when the batch read it, else its platform id (looked up as the line is written). */
  betId?: number;
  betProviderTxId: string | null;
  /** `anomalyMark` of the callback's anomalies, null when it has none. */
  anomaly?: string | null;
}
/** What a money rule says of a journal line; the wallet's part (amount, balance, sequence) is the batch's. */
export type JournalLineFields = Omit<
  JournalRow,
  "tenantId" | "playerId" | "walletId" | "currency" | "amount" | "balanceAfter" | "walletSeq"
>;
export interface RecordRow extends StoredRecord {
  tenantId: number;
  providerTxId: string;
  action: string;
}

/** A CLOSE_ROUND as the batch stores it, with the outbox row of the effects it owes. */
export interface CloseRow extends CloseArraysStored {
  tenantId: number;
  roundId: string;
  providerTxId: string;
  operatorTxId: string;
  game: string;
  currency: string | null;
}
export interface OutboxRow {
  tenantId: number;
  topic: string;
  eventId: string;
  payload: string;
}

/** Everything a batch will write, gathered while its calls are decided, written in one round trip. */
export class WriteSet {
  readonly closes: CloseRow[] = [];
  readonly outbox: OutboxRow[] = [];
  readonly walletDeltas = new Map<number, { balance: bigint; lines: number }>();
  readonly newBets: BetState[] = [];
  readonly changedBets = new Set<BetState>();
  readonly journal: JournalRow[] = [];
  readonly grantRestores = new Map<number, number>();
  readonly records: RecordRow[] = [];
}

/**
 * The rows a batch read under lock, then changed in memory call by call in batch order: a later call
 * sees what an earlier one did (the same player twice, a bet placed then settled) exactly as if
 * they had run one after the other.
 */
export class BatchState {
  readonly players = new Map<string, BatchPlayer>();
  readonly sessions = new Map<string, { playerId: number; live: boolean }>();
  readonly records = new Map<string, StoredRecord>();
  readonly bets = new Map<string, BetState>();
  /** Closed rounds (by tenant and round id): the `provider_tx_id` of the close that closed each. */
  readonly closes = new Map<string, string>();
  /**
   * The rounds the batch's money lines go into that are closed (by tenant and round id), read with
   * the round's row locked (`reads.ts`), and the rounds this batch closes: a line into one is booked late.
   */
  readonly closedRounds = new Set<string>();
  private readonly stakes = new Map<string, bigint>();
  readonly writes = new WriteSet();

  player(tenantId: number, userId: string): BatchPlayer | undefined {
    return this.players.get(idKey(tenantId, userId));
  }

  /** The session bound to this token, read by the token's hash (as it is stored). */
  session(tenantId: number, sessionToken: string): { playerId: number; live: boolean } | undefined {
    return this.sessions.get(idKey(tenantId, tokenHash(sessionToken)));
  }

  bet(tenantId: number, providerTxId: string): BetState | undefined {
    return this.bets.get(idKey(tenantId, providerTxId));
  }

  /** Real money staked by the player in the round so far (rolled-back bets excluded). */
  staked(playerId: number, roundId: string): bigint {
    return this.stakes.get(stakeKey(playerId, roundId)) ?? 0n;
  }

  setStaked(playerId: number, roundId: string, amount: bigint): void {
    this.stakes.set(stakeKey(playerId, roundId), amount);
  }

  /** Moves the wallet's balance by `delta` and journals it; the new balance is returned. */
  move(player: BatchPlayer, wallet: BatchWallet, delta: bigint, line: JournalLineFields): bigint {
    wallet.balance += delta;
    wallet.seq += 1;
    const writes = this.writes;
    const moved = writes.walletDeltas.get(wallet.id) ?? { balance: 0n, lines: 0 };
    writes.walletDeltas.set(wallet.id, { balance: moved.balance + delta, lines: moved.lines + 1 });
    writes.journal.push({
      ...line,
      tenantId: player.tenantId,
      playerId: player.id,
      walletId: wallet.id,
      currency: wallet.currency,
      amount: delta,
      balanceAfter: wallet.balance,
      walletSeq: wallet.seq,
    });
    return wallet.balance;
  }

  addBet(bet: BetState): void {
    this.bets.set(idKey(bet.tenantId, bet.providerTxId), bet);
    this.writes.newBets.push(bet);
  }

  /** Records a change to a bet: rewritten in place if this batch inserts it, updated by id otherwise. */
  changed(bet: BetState): void {
    if (bet.id !== undefined) this.writes.changedBets.add(bet);
  }

  isClosed(tenantId: number, roundId: string): boolean {
    return this.closedRounds.has(idKey(tenantId, roundId));
  }

  /** Records a round's close and the side effects it owes (one outbox row for all four topics). */
  close(row: CloseRow, owed: OutboxRow): void {
    this.closes.set(idKey(row.tenantId, row.roundId), row.providerTxId);
    this.closedRounds.add(idKey(row.tenantId, row.roundId));
    this.writes.closes.push(row);
    this.writes.outbox.push(owed);
  }

  /** A money line booked into a closed round owes the round's effects again, for that line (its late event). */
  owe(row: OutboxRow): void {
    this.writes.outbox.push(row);
  }

  restoreGrant(grantId: number): void {
    this.writes.grantRestores.set(grantId, (this.writes.grantRestores.get(grantId) ?? 0) + 1);
  }

  store(record: RecordRow): void {
    this.records.set(idKey(record.tenantId, record.providerTxId), record);
    this.writes.records.push(record);
  }
}
