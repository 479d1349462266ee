import { randomUUID } from "node:crypto";

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
