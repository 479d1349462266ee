import { createHash, createHmac, timingSafeEqual } from "node:crypto";

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
  const given = givenDigest(signatureHeader);
  if (typeof given === "string") return given;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return compare(given, expected);
}

/** The header's digest, or why it is refused before any hashing. */
function givenDigest(signatureHeader: unknown): Buffer | Exclude<SignatureCheck, "ok" | "mismatch"> {
  if (typeof signatureHeader !== "string" || signatureHeader.trim() === "") return "missing_signature";
  const header = signatureHeader.trim();
  if (!BASE64_SHA256.test(header)) return "malformed_signature";
  const given = Buffer.from(header, "base64");
  if (given.length !== DIGEST_BYTES) return "malformed_signature";
  return given;
}

/** Both digests are 32 bytes (`givenDigest`), so this never throws and always compares all of them. */
const compare = (given: Buffer, expected: Buffer): SignatureCheck =>
  timingSafeEqual(given, expected) ? "ok" : "mismatch";

/** Bytes hashed per event-loop turn by `checkSignatureInSlices`: about a millisecond of work. */
const SLICE_BYTES = 512 * 1024;

/**
 * `checkSignature` of a large body (a CLOSE_ROUND of up to 8 MiB) a slice per event-loop turn, with
 * its SHA-256 (hex) computed on the way (empty when the header is refused before any hashing): no
 * turn holds the gateway's loop for more than about a millisecond, where the whole body takes ten or more.
 */
export async function checkSignatureInSlices(
  rawBody: Uint8Array,
  signatureHeader: unknown,
  secret: string,
): Promise<{ check: SignatureCheck; sha256: string }> {
  const given = givenDigest(signatureHeader);
  if (typeof given === "string") return { check: given, sha256: "" };
  const hmac = createHmac("sha256", secret);
  const hash = createHash("sha256");
  for (let at = 0; at < rawBody.length; at += SLICE_BYTES) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = rawBody.subarray(at, at + SLICE_BYTES);
    hmac.update(slice);
    hash.update(slice);
  }
  return { check: compare(given, hmac.digest()), sha256: hash.digest("hex") };
}

/** True only for a valid signature of these bytes (see checkSignature for the reasons it is not). */
export function verify(rawBody: Uint8Array | string, signatureHeader: unknown, secret: string): boolean {
  return checkSignature(rawBody, signatureHeader, secret) === "ok";
}
