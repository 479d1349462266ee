import { createHash } from "node:crypto";

/** SHA-256 (hex) of the raw request bytes: the idempotency fingerprint of a callback. */
export function sha256Hex(raw: Uint8Array | string): string {
  return createHash("sha256").update(raw).digest("hex");
}

/**
 * How a session or user token is stored and looked up: its SHA-256 (hex), never the token itself,
 * so a dump of the database opens no session. Tokens are long random strings (or the platform's), so
 * no salt is needed against guessing; the hash is only a lookup key.
 */
export function tokenHash(token: string): string {
  return sha256Hex(token);
}
