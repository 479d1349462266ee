import { randomBytes } from "node:crypto";

/**
 * User tokens carry the player they were minted for (`u.<base64url user_id>.<random>`), so the
 * gateway can queue `/auth` behind that player's other callbacks without a database lookup. The
 * embedded id is only a routing hint: the ledger still looks the token up and trusts nothing else.
 */
export function newUserToken(userId: string): string {
  return `u.${Buffer.from(userId, "utf8").toString("base64url")}.${randomBytes(18).toString("base64url")}`;
}

export function userIdHint(userToken: string): string | undefined {
  const match = /^u\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/.exec(userToken);
  if (!match?.[1]) return undefined;
  const userId = Buffer.from(match[1], "base64url").toString("utf8");
  return userId.length > 0 && userId.isWellFormed() ? userId : undefined;
}
