import { tokenHash } from "@wallet/contracts/hash";
import type { OperatorPrincipal } from "@wallet/ledger/verbs/operator-tokens";

type FindToken = (token: string) => Promise<OperatorPrincipal | undefined>;

export interface TokenCacheOptions {
  /** OPERATOR_API_TOKEN_CACHE_MS: how long an answer is kept; 0 reads MariaDB on every request. */
  ttlMs: number;
  /** Answers kept at most: a flood of made-up tokens evicts the oldest, never grows the process. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * The token lookup, remembered for `ttlMs`: a busy client no longer costs a MariaDB read per
 * request. Unknown tokens are remembered too, so a client retrying a wrong one does not either.
 * The bound: an answer is kept `ttlMs` from the moment its read started, so a token revoked (or
 * created) is seen at most `ttlMs` after that change commits. Entries are keyed by the token's
 * SHA-256, as the table is: the process keeps no secret it was sent. Concurrent requests with the
 * same token share one read; a failed read is not remembered (the next request reads again).
 */
export function cachedTokenLookup(find: FindToken, options: TokenCacheOptions): FindToken {
  const { ttlMs, maxEntries = 10_000, now = Date.now } = options;
  if (ttlMs <= 0) return find;
  const answers = new Map<string, { principal: Promise<OperatorPrincipal | undefined>; until: number }>();
  return (token) => {
    const key = tokenHash(token);
    const kept = answers.get(key);
    if (kept && now() < kept.until) return kept.principal;
    answers.delete(key);
    // Map keeps insertion order: the first key is the oldest answer.
    if (answers.size >= maxEntries) answers.delete(answers.keys().next().value ?? "");
    // Counted from before the read: whatever it sees is at most `ttlMs` old when dropped.
    const until = now() + ttlMs;
    const entry = { principal: find(token), until };
    answers.set(key, entry);
    entry.principal.catch(() => {
      if (answers.get(key) === entry) answers.delete(key);
    });
    return entry.principal;
  };
}
