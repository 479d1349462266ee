import type { Pool } from "mysql2/promise";
import type { BatchRequest } from "./batch/requests.ts";
import type { JournalRow, OutboxRow } from "./batch/state.ts";
import type { Db } from "./db.ts";
import type { Outcome } from "./outcome.ts";

export interface LedgerConfig {
  /** How long a session bound by /auth accepts bets. */
  sessionTtlSeconds: number;
  /** Whole-transaction attempts a conflict (deadlock, lock-wait timeout, ...) always gets. */
  transactionAttempts: number;
  /**
   * More attempts while less than this many ms have passed since the first (`conflict-retry.ts`):
   * a conflict storm outlasts five quick attempts, and each 503 spends one of the platform's six sends.
   */
  transactionRetryMs: number;
  /** Loyalty points per 1000 millis of real money staked in a closed round. */
  loyaltyPointsPer1000: number;
}

export const defaultLedgerConfig: LedgerConfig = {
  sessionTtlSeconds: 24 * 3600,
  transactionAttempts: 5,
  transactionRetryMs: 1_000,
  loyaltyPointsPer1000: 1,
};

export interface LedgerContext {
  db: Db;
  /** The multi-statement pool of `createDatabase`: the group-committed money callbacks (batch/). */
  batch: Pool;
  config: LedgerConfig;
  /** Counts whole-transaction retries by MySQL error number (metrics hook). */
  onTransactionRetry?: (errno: number | undefined) => void;
  /**
   * TEST HOOKS, never set in production (only the worker's test-only variables set them, each refused
   * without NODE_ENV=test: `apps/worker/src/env.ts`). Called inside a group-committed transaction,
   * `afterBatchRead` once its first round trip has read and locked (before anything is decided),
   * `beforeBatchCommit` after its writes, before COMMIT, with its requests and their answers.
   */
  testHooks?: LedgerTestHooks;
}

export interface LedgerTestHooks {
  afterBatchRead?: (requests: readonly BatchRequest[]) => Promise<void>;
  beforeBatchCommit?: (requests: readonly BatchRequest[], outcomes: readonly Outcome[]) => Promise<void>;
  /**
   * PLANTED BUGS (`TEST_PLANTED_BUG`, `apps/worker/src/planted-bugs.ts`): each breaks one guarantee on
   * purpose, so the fault campaign's checker can prove it sees the breach. `skipIdempotencyLookup`:
   * the batch reads neither the stored answers of its own ids nor a BET's own bet row, and its inserts
   * keep the first row on a duplicate key, as code without those lookups and keys would.
   */
  skipIdempotencyLookup?: boolean;
  /** A journal line this says yes to is not written; its balance still moves. */
  dropJournalLine?: (line: JournalRow) => boolean;
  /** An outbox row this says yes to is not written; its close still commits. */
  dropOutboxRow?: (row: OutboxRow) => boolean;
  /**
   * The batch reads its wallets without their row lock and numbers its journal lines from the wallet
   * row as its update leaves it: two batches of one player interleave, and the second decides and
   * journals from a balance the first has already moved.
   */
  unlockedWalletRead?: boolean;
  /** The batch's multi-statement transaction sent without its abort guard (autocommit off, the savepoint). */
  unguardedPacket?: boolean;
}
