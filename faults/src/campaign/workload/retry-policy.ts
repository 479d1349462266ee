import { CONTRACT_MAX_ATTEMPTS } from "@wallet/platform-sim/retry-limits";
import type { RetryPolicy } from "@wallet/platform-sim/wallet-client";

/**
 * The contract's resend policy, its delays shrunk to fit a campaign of minutes: 5 sends in all (the
 * contract's cap), 500 ms doubling to 4 s (the contract: 5 s doubling to 2 min), a 4 s timeout per
 * attempt. A fault longer than about 7.5 s makes the platform give up on a callback, as it would:
 * that callback stays unanswered in the history, which may or may not have happened.
 */
export const campaignRetryPolicy: RetryPolicy = {
  baseMs: 500,
  maxMs: 4_000,
  jitterMs: 100,
  maxAttempts: CONTRACT_MAX_ATTEMPTS,
  timeoutMs: 4_000,
};

/** The simulator's environment for the same policy. */
export const campaignSimEnv: Record<string, string> = {
  SIM_RETRY_BASE_MS: String(campaignRetryPolicy.baseMs),
  SIM_RETRY_MAX_MS: String(campaignRetryPolicy.maxMs),
  SIM_RETRY_JITTER_MS: String(campaignRetryPolicy.jitterMs),
  SIM_RETRY_ATTEMPTS: String(campaignRetryPolicy.maxAttempts),
  SIM_CALLBACK_TIMEOUT_MS: String(campaignRetryPolicy.timeoutMs),
};
