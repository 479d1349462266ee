import { randomBytes } from "node:crypto";

/**
 * User tokens carry the player they were minted for (`u.<base64url user_id>.<random>`), so the
 * gateway can queue `/auth` behind that player's other callbacks without a database lookup. The
 * embedded id is only a routing hint: the ledger still looks the token up and trusts nothing else.
 */
/**
 * The longest `user_id` the API accepts, in characters (Unicode code points): what every schema's
 * `identifier(userIdMax)` counts (zod measures strings in code points, as JSON Schema's `maxLength`
 * does) and what the `players.user_id` column counts (VARCHAR(64) utf8mb4, up to 4 bytes each).
 * JS `.length` counts UTF-16 units, two for a character past U+FFFF: never check an id with it.
 */
export const userIdMax = 64;

/** The most UTF-8 bytes one code point takes (U+10000 and above: emoji, CJK Extension B, …). */
const utf8BytesMax = 4;

/** Characters of unpadded base64url for `bytes` bytes. */
const base64urlLength = (bytes: number) => Math.ceil((bytes * 4) / 3);

/**
 * The longest token `newUserToken` mints, so `/auth` accepts every one: `u.`, the base64url of the
 * id's UTF-8 (at most 64 code points of 4 bytes, 256 bytes: 342 characters), `.`, 24 random
 * characters: 369. Sized for 3 bytes a character it was 283, and a player whose id was 64 emoji or
 * CJK Extension B characters was created and minted a token that `/auth` refused.
 */
export const userTokenMax = 2 + base64urlLength(userIdMax * utf8BytesMax) + 1 + 24;

export function newUserToken(userId: string): string {
  return `u.${Buffer.from(userId, "utf8").toString("base64url")}.${randomBytes(18).toString("base64url")}`;
}

export function userIdHint(userToken: string): string | undefined {
  const match = /^u\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/.exec(userToken);
  if (!match?.[1]) return undefined;
  const userId = Buffer.from(match[1], "base64url").toString("utf8");
  return userId.length > 0 && userId.isWellFormed() ? userId : undefined;
}
