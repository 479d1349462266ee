import { tokenHash } from "@wallet/contracts/hash";
import type { OperatorPrincipal } from "@wallet/ledger/verbs/operator-tokens";

type FindToken = (token: string) => Promise<OperatorPrincipal | undefined>;

export interface TokenLookupOptions {
  /**
   * OPERATOR_API_UNKNOWN_TOKEN_CACHE_MS: how long a token found nowhere (unknown, or revoked) stays
   * refused without a read; 0 reads MariaDB for those too.
   */
  unknownTtlMs: number;
  /** Refusals kept at most: a flood of made-up tokens evicts the oldest, never grows the process. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * The per-operator token lookup. A live token is read from MariaDB on every request and its answer
 * is never kept or shared: a revocation (`pnpm tokens revoke`, from any process) is seen by the very
 * next request on every operator API process, since a leaked write token moves money. (Kept for up
 * to 5 s, the old cache served a revoked token 200 for seconds after the revoke returned; a read
 * shared with requests that arrived later would do the same for the length of the read.) Only a
 * refusal is remembered, keyed by the token's SHA-256 as the table is (the process keeps no secret
 * it was sent): a client retrying a wrong token costs no read, and a token that is refused now is
 * never live later (a revocation is final, and a new token is random). A failed read is not
 * remembered: the next request reads again.
 */
export function tokenLookup(find: FindToken, options: TokenLookupOptions): FindToken {
  const { unknownTtlMs, maxEntries = 10_000, now = Date.now } = options;
  const refused = new Map<string, number>();
  return async (token) => {
    const key = tokenHash(token);
    const until = refused.get(key);
    if (until !== undefined && now() < until) return undefined;
    refused.delete(key);
    const principal = await find(token);
    if (principal || unknownTtlMs <= 0) return principal;
    // Map keeps insertion order: the first key is the oldest refusal.
    if (refused.size >= maxEntries) refused.delete(refused.keys().next().value ?? "");
    refused.set(key, now() + unknownTtlMs);
    return undefined;
  };
}
