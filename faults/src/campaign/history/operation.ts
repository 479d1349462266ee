/**
 * One request of a campaign's history, as its sender saw it (Jepsen's invocation and completion):
 * the platform's callbacks (from the simulator, with its resends folded into one operation, since
 * every resend carries the same bytes) and the operator's calls to the operator API. The checker reads
 * only this and the ledger; nothing here is the system's own account of itself.
 */
export type OperationKind =
  // platform → wallet (contract, "The callbacks")
  | "auth"
  | "balance"
  | "BET"
  | "FREE_BET"
  | "WIN"
  | "FREE_BET_WIN"
  | "ROLL_BACK"
  | "CLOSE_ROUND"
  // operator → operator API
  | "adjust"
  | "grant-free-bets"
  | "mint-token"
  | "revoke-token"
  | "manual-close";

export interface Operation {
  /** Unique within a history, in invocation order. */
  id: number;
  source: "platform" | "operator";
  kind: OperationKind;
  /** The tenant (operatorId). */
  operatorId: number;
  /** The player it names; null for CLOSE_ROUND and a manual close (they name a round). */
  userId: string | null;
  /** The round (`action_id`), when it names one. */
  roundId: string | null;
  /** The idempotency key: `provider_tx_id`, or an adjustment's `reference`. */
  key: string | null;
  /** For WIN, FREE_BET_WIN and ROLL_BACK: the bet it settles (`withdraw_provider_tx_id`). */
  betKey: string | null;
  /** Integer millis as sent (a debit adjustment is negative), or null. */
  amount: number | null;
  /** For `grant-free-bets`: how many were granted. */
  count?: number;
  method: string;
  path: string;
  /** The exact bytes sent (every resend sent them again). */
  request: string;
  /** ms since the epoch: the first attempt's start. */
  invokedAt: number;
  /** ms since the epoch: the final answer's arrival; null when the sender never got one. */
  completedAt: number | null;
  /** Final HTTP status; 0 when none came (after every attempt). */
  status: number;
  /** The final answer's exact bytes ("" when none). */
  reply: string;
  /** The balance a 2xx reported (`balance`, `amount` or `new_balance`), or null. */
  balance: number | null;
  attempts: number;
}

/**
 * Whether the operation's effect is known: a final 2xx or 4xx is an answer (it happened, or it was
 * refused and moved nothing); a 5xx or no answer after the last attempt may or may not have happened.
 */
export function isAnswered(op: Operation): boolean {
  return op.status >= 200 && op.status < 500;
}
