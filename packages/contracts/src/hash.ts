import { createHash } from "node:crypto";

/** SHA-256 (hex) of the raw request bytes: the idempotency fingerprint of a callback. */
export function sha256Hex(raw: Uint8Array | string): string {
  return createHash("sha256").update(raw).digest("hex");
}
