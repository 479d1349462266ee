import type { LedgerTestHooks } from "../context.ts";
import type { JournalRow } from "./state.ts";

/**
 * PLANTED BUGS, the write side (`LedgerTestHooks`; switched on only by the worker's test-only
 * `TEST_PLANTED_BUG`). Each variant of a statement is here, so `writes.ts` reads as production runs it.
 */
export type BatchWriteHooks = Pick<
  LedgerTestHooks,
  "skipIdempotencyLookup" | "dropJournalLine" | "dropOutboxRow" | "unlockedWalletRead" | "unguardedPacket"
> & {
  /** Runs between the writes and COMMIT (COMMIT then takes a round trip of its own). */
  beforeCommit?: () => Promise<void>;
};

/**
 * `skipIdempotencyLookup`: a second row under a key already stored is dropped instead of failing the
 * batch, as an insert into a table without that unique key would succeed: the resend's money moves.
 * (`INSERT IGNORE`: the runtime user may not UPDATE these tables, so no `ON DUPLICATE KEY UPDATE`.)
 */
export const keepFirstOnDuplicate = (insert: string) =>
  `INSERT IGNORE INTO ${insert.replace(/^INSERT INTO /, "")}`;

/**
 * `unlockedWalletRead`: a line's `wallet_seq` is taken from its wallet row as the batch's update left
 * it (the wallet's last line, less the lines after it in this batch), not from the read: the second of
 * two interleaved batches of one wallet numbers its lines after the first's, and commits what it
 * decided from its stale balance (its `balance_after`, its answer's `new_balance`) instead of
 * failing on the duplicate `(wallet_id, wallet_seq)` that guards the real code.
 */
export const walletSeqNow = "(SELECT w.seq FROM wallets w WHERE w.id = ?) - ?";

/** The values `walletSeqNow` takes for each line: its wallet, and how many of the batch's lines of that wallet follow it. */
export function walletSeqValues(lines: readonly JournalRow[]): (line: JournalRow) => unknown[] {
  const last = new Map<number, number>();
  for (const line of lines) last.set(line.walletId, Math.max(last.get(line.walletId) ?? 0, line.walletSeq));
  return (line) => [line.walletId, (last.get(line.walletId) ?? line.walletSeq) - line.walletSeq];
}

/**
 * `unguardedPacket`: the batch's transaction opened and ended as before issue 41, autocommit on and no
 * savepoint (`sql/multi-statement.ts`): a brute-force abort in the middle of the write packet leaves
 * the rest of it autocommitted, and the packet is answered OK.
 */
export const unguardedBegin = ["START TRANSACTION"] as const;
export const unguardedCommit = ["COMMIT"] as const;
