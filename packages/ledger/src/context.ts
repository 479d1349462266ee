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
  config: LedgerConfig;
  /** Counts whole-transaction retries by MySQL error number (metrics hook). */
  onTransactionRetry?: (errno: number | undefined) => void;
}
