import type { Pool } from "mysql2/promise";
import type { BatchRequest } from "./batch/requests.ts";
import type { Db } from "./db.ts";

export interface LedgerConfig {
  /** How long a session bound by /auth accepts bets. */
  sessionTtlSeconds: number;
  /** Whole-transaction attempts on deadlock / lock-wait timeout. */
  transactionAttempts: number;
  /** Loyalty points per 1000 millis of real money staked in a closed round. */
  loyaltyPointsPer1000: number;
}

export const defaultLedgerConfig: LedgerConfig = {
  sessionTtlSeconds: 24 * 3600,
  transactionAttempts: 5,
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
   * TEST HOOKS, never set in production (only the worker's test-only `TEST_CRASH_POINT` and
   * `TEST_HOLD_BATCH` set them, with NODE_ENV=test): called inside a group-committed transaction,
   * `afterBatchRead` once its first round trip has read and locked (before anything is decided),
   * `beforeBatchCommit` after its writes, before COMMIT, with the batch's size.
   */
  testHooks?: {
    afterBatchRead?: (requests: readonly BatchRequest[]) => Promise<void>;
    beforeBatchCommit?: (calls: number) => Promise<void>;
  };
}
