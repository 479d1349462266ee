import { randomBytes } from "node:crypto";
import { limits } from "./limits.ts";

/**
 * User tokens carry the player they were minted for (`u.<base64url user_id>.<random>`), so the
 * gateway can queue `/auth` behind that player's other callbacks without a database lookup. The
 * embedded id is only a routing hint: the ledger still looks the token up and trusts nothing else.
 */
/** The longest `user_id`, in code points (`limits.ts`); JS `.length` never measures an id. */
export const userIdMax = limits.userId.max;

/**
 * The longest token `newUserToken` mints, so `/auth` accepts every one (`limits.ts`: 369). Sized for
 * 3 bytes a character it was 283, and a player whose id was 64 emoji or CJK Extension B characters
 * was created and minted a token that `/auth` refused.
 */
export const userTokenMax = limits.userToken.max;

export function newUserToken(userId: string): string {
  return `u.${Buffer.from(userId, "utf8").toString("base64url")}.${randomBytes(18).toString("base64url")}`;
}

export function userIdHint(userToken: string): string | undefined {
  const match = /^u\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/.exec(userToken);
  if (!match?.[1]) return undefined;
  const userId = Buffer.from(match[1], "base64url").toString("utf8");
  return userId.length > 0 && userId.isWellFormed() ? userId : undefined;
}
