import { createHmac, timingSafeEqual } from "node:crypto";

const DIGEST_BYTES = 32;
// Standard Base64 of exactly 32 bytes: 43 symbols and one padding character.
const BASE64_SHA256 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** Base64 HMAC-SHA256 of the raw request bytes, as the platform puts it in `X-Signature`. */
export function sign(rawBody: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody).digest("base64");
}

/** Why a signature was refused; the gateway counts these by reason. */
export const signatureRefusals = ["missing_signature", "malformed_signature", "mismatch"] as const;
export type SignatureCheck = "ok" | (typeof signatureRefusals)[number];

/**
 * Checks `X-Signature` against the raw bytes. Never throws: a missing, empty, non-Base64 or
 * wrong-length header is refused with its reason; the digests are compared in constant time.
 */
export function checkSignature(
  rawBody: Uint8Array | string,
  signatureHeader: unknown,
  secret: string,
): SignatureCheck {
  try {
    if (typeof signatureHeader !== "string" || signatureHeader.trim() === "") return "missing_signature";
    const header = signatureHeader.trim();
    if (!BASE64_SHA256.test(header)) return "malformed_signature";
    const given = Buffer.from(header, "base64");
    if (given.length !== DIGEST_BYTES) return "malformed_signature";
    const expected = createHmac("sha256", secret).update(rawBody).digest();
    return timingSafeEqual(given, expected) ? "ok" : "mismatch";
  } catch {
    return "malformed_signature";
  }
}

/** True only for a valid signature of these bytes (see checkSignature for the reasons it is not). */
export function verify(rawBody: Uint8Array | string, signatureHeader: unknown, secret: string): boolean {
  return checkSignature(rawBody, signatureHeader, secret) === "ok";
}
