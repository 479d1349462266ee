/**
 * What the wallet model is asked: one request, as the fields the contract's rules read. A caller
 * (the ledger's model-based test, the fault campaign's checker) builds these from what it sent.
 */
interface KeyedCallback {
  /** `provider_tx_id`: the idempotency key. */
  key: string;
  /** The exact bytes sent: the same key with other bytes is a 409. */
  body: string;
  /** `action_id`. */
  round: string;
  amount: bigint;
  /** The request's currency, when known (another than the player's is a stored 400). */
  currency: string | null;
}

export type WalletCommand =
  | ({ kind: "BET" } & KeyedCallback)
  | ({ kind: "FREE_BET" } & KeyedCallback)
  | ({ kind: "WIN"; betKey: string | null } & KeyedCallback)
  | ({ kind: "FREE_BET_WIN"; betKey: string | null } & KeyedCallback)
  | ({ kind: "ROLL_BACK"; betKey: string } & KeyedCallback)
  | { kind: "balance"; currency: string | null }
  | { kind: "auth"; token: string | null; currency: string | null }
  /** A cashier credit (amount > 0) or debit (amount < 0); `body` is what the ledger hashes. */
  | { kind: "adjust"; reference: string; amount: bigint; body: string }
  | { kind: "grant-free-bets"; count: number }
  | { kind: "mint-token" | "revoke-token"; token: string | null }
  /** A body its schema refuses before the ledger sees it: 400, stored nowhere, moves nothing. */
  | { kind: "malformed" };

/** What the wallet answers: the status, and the balance the answer reports (null when it reports none). */
export interface WalletAnswer {
  status: number;
  balance: bigint | null;
}
