import { randomUUID } from "node:crypto";
import { WalletError } from "@wallet/contracts/errors";

/** What a callback verb receives: the tenant behind `X-Public-Key`, the parsed JSON, the raw bytes' hash. */
export interface CallbackInput {
  tenantId: number;
  /** The JSON body as parsed from the wire; the verb validates it first. */
  body: unknown;
  /** SHA-256 (hex) of the raw request bytes, the idempotency fingerprint. */
  bodySha256: string;
}

/** Our id for a transaction, echoed to the platform as `operator_tx_id`. */
export function newOperatorTxId(): string {
  return randomUUID();
}

/**
 * A bet under a `provider_tx_id` whose ROLL_BACK came first, from another player: 409. The tombstone
 * answers 200 with no debit to its own player only; to anyone else it would be a bet for free.
 */
export function tombstoneConflict(providerTxId: string): WalletError {
  return new WalletError(
    "DUPLICATE_CONFLICT",
    `bet ${providerTxId} was rolled back for another player before it arrived`,
  );
}
