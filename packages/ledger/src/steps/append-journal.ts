import type { Tx } from "../db.ts";
import { type JournalKind, journalEntries } from "../schema/journal-entries.ts";
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
