import { createHmac, timingSafeEqual } from "node:crypto";

const DIGEST_BYTES = 32;
// Standard Base64 of exactly 32 bytes: 43 symbols and one padding character.
const BASE64_SHA256 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** Base64 HMAC-SHA256 of the raw request bytes, as the platform puts it in `X-Signature`. */
export function sign(rawBody: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody).digest("base64");
}

/**
 * Checks `X-Signature` against the raw bytes. Returns false, never throws, for a missing, empty,
 * non-Base64 or wrong-length header; the digests are compared in constant time.
 */
export function verify(rawBody: Uint8Array | string, signatureHeader: unknown, secret: string): boolean {
  try {
    if (typeof signatureHeader !== "string") return false;
    const header = signatureHeader.trim();
    if (!BASE64_SHA256.test(header)) return false;
    const given = Buffer.from(header, "base64");
    if (given.length !== DIGEST_BYTES) return false;
    const expected = createHmac("sha256", secret).update(rawBody).digest();
    return timingSafeEqual(given, expected);
  } catch {
    return false;
  }
}
