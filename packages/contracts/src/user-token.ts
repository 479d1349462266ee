import { randomBytes } from "node:crypto";

/**
 * User tokens carry the player they were minted for (`u.<base64url user_id>.<random>`), so the
 * gateway can queue `/auth` behind that player's other callbacks without a database lookup. The
 * embedded id is only a routing hint: the ledger still looks the token up and trusts nothing else.
 */
/** The longest `user_id` the API accepts, in UTF-16 units (what the schemas count). */
export const userIdMax = 64;

/**
 * The longest token `newUserToken` mints, so `/auth` accepts every one: `u.`, the base64url of the
 * id's UTF-8 (at most 3 bytes per UTF-16 unit, 192 bytes: 256 characters), `.`, 24 random characters.
 * A player id of 64 multi-byte characters was created, then could never be launched.
 */
export const userTokenMax = 2 + Math.ceil((userIdMax * 3 * 4) / 3) + 1 + 24;

export function newUserToken(userId: string): string {
  return `u.${Buffer.from(userId, "utf8").toString("base64url")}.${randomBytes(18).toString("base64url")}`;
}

export function userIdHint(userToken: string): string | undefined {
  const match = /^u\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/.exec(userToken);
  if (!match?.[1]) return undefined;
  const userId = Buffer.from(match[1], "base64url").toString("utf8");
  return userId.length > 0 && userId.isWellFormed() ? userId : undefined;
}
