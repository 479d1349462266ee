import { eq, sql } from "drizzle-orm";
import type { Tx } from "../db.ts";
import { type JournalKind, journalEntries } from "../schema/journal-entries.ts";
import { wallets } from "../schema/wallets.ts";
import type { Player } from "./find-player.ts";
import type { LockedWallet } from "./lock-wallet.ts";

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

/**
 * Journals a line of the locked wallet as its next in sequence: the wallet's `seq` moves with it,
 * in the same transaction, so a wallet's lines are numbered 1, 2, … in the order they were booked
 * whatever server assigned their ids.
 */
export async function appendJournal(
  tx: Tx,
  player: Player,
  wallet: LockedWallet,
  line: JournalLine,
): Promise<void> {
  await tx
    .update(wallets)
    .set({ seq: sql`${wallets.seq} + 1` })
    .where(eq(wallets.id, wallet.id));
  wallet.seq += 1;
  await tx.insert(journalEntries).values({
    tenantId: player.tenantId,
    playerId: player.id,
    walletId: wallet.id,
    walletSeq: wallet.seq,
    currency: wallet.currency,
    ...line,
  });
}
