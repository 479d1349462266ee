import { randomBytes } from "node:crypto";
import { tokenHash } from "@wallet/contracts/hash";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db.ts";
import { operatorApiTokens, type TokenScope } from "../schema/operator-api-tokens.ts";

/** Who made an operator-API call: the token's operator and scope, and how the audit trail names it. */
export interface OperatorPrincipal {
  /** The token's operator; undefined for OPERATOR_API_TOKEN, which may act for every operator. */
  tenantId?: number;
  scope: TokenScope;
  /** `token:<public id>`, or `OPERATOR_API_TOKEN`: never the secret. */
  actor: string;
}

/**
 * The shapes of what `createOperatorToken` mints (`limits.ts`: `operatorToken`, 60 characters, and
 * `operatorTokenPublicId`, 12): anything else is no token of ours, refused without a read.
 */
export const operatorTokenPattern = /^wop_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;
export const publicIdPattern = /^[0-9a-f]{12}$/;

/**
 * Mints a token for one operator: `wop_<public id>_<secret>`, returned this once; only its SHA-256
 * is stored. The public id names it in `pnpm tokens list` and in the audit trail.
 */
export async function createOperatorToken(
  db: Db,
  input: { tenantId: number; scope: TokenScope; label?: string },
): Promise<{ token: string; publicId: string }> {
  const publicId = randomBytes(6).toString("hex");
  const token = `wop_${publicId}_${randomBytes(32).toString("base64url")}`;
  await db.insert(operatorApiTokens).values({
    publicId,
    tokenHash: tokenHash(token),
    tenantId: input.tenantId,
    scope: input.scope,
    label: input.label ?? "",
  });
  return { token, publicId };
}

/**
 * The live token with this value, found by its hash: a lookup on a hash of the secret, so its timing
 * tells nothing about the secret (no string comparison of secrets happens here).
 */
export async function findOperatorToken(db: Db, token: string): Promise<OperatorPrincipal | undefined> {
  const [row] = await db
    .select({
      tenantId: operatorApiTokens.tenantId,
      scope: operatorApiTokens.scope,
      publicId: operatorApiTokens.publicId,
    })
    .from(operatorApiTokens)
    .where(and(eq(operatorApiTokens.tokenHash, tokenHash(token)), isNull(operatorApiTokens.revokedAt)))
    .limit(1);
  return row && { tenantId: row.tenantId, scope: row.scope, actor: `token:${row.publicId}` };
}

/**
 * Revokes a token: once this has returned, the next request with it is refused (401) by every
 * operator API process, which reads a live token on every request; false when no live token has that id.
 */
export async function revokeOperatorToken(db: Db, publicId: string): Promise<boolean> {
  const [result] = await db
    .update(operatorApiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorApiTokens.publicId, publicId), isNull(operatorApiTokens.revokedAt)));
  return (result as unknown as { affectedRows: number }).affectedRows === 1;
}
