import { createDatabase } from "@wallet/ledger/db";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import {
  createOperatorToken,
  findOperatorToken,
  revokeOperatorToken,
} from "@wallet/ledger/verbs/operator-tokens";
import { describe, expect, it } from "vitest";
import { cachedTokenLookup } from "./token-cache.ts";

const ledger = useTestLedger();

/** The real lookup against MariaDB, counting the reads it makes. */
const countedLookup = () => {
  const counted = { reads: 0 };
  const find = (token: string) => {
    counted.reads += 1;
    return findOperatorToken(ledger.ctx.db, token);
  };
  return { counted, find };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the operator token cache (OPERATOR_API_TOKEN_CACHE_MS)", () => {
  it("reads a token once per window: within it a revoked token is still answered from memory, after it refused", async () => {
    const { token, publicId } = await createOperatorToken(ledger.db, { tenantId: 1, scope: "write" });
    const { counted, find } = countedLookup();
    let now = 1_000_000;
    const lookup = cachedTokenLookup(find, { ttlMs: 60_000, now: () => now });
    const principal = { tenantId: 1, scope: "write", actor: `token:${publicId}` };
    for (let call = 0; call < 5; call++) expect(await lookup(token)).toEqual(principal);
    expect(counted.reads).toBe(1);

    expect(await revokeOperatorToken(ledger.db, publicId)).toBe(true);
    now += 59_999;
    // Not read again: the revocation is not seen yet, which is the stated bound, not a bug.
    expect(await lookup(token)).toEqual(principal);
    expect(counted.reads).toBe(1);
    now += 1;
    expect(await lookup(token)).toBeUndefined();
    expect(await lookup(token)).toBeUndefined();
    expect(counted.reads).toBe(2);
  });

  it("with the real clock, a revoked token is refused once the window has passed since the revocation", async () => {
    const { token, publicId } = await createOperatorToken(ledger.db, { tenantId: 2, scope: "read" });
    const { counted, find } = countedLookup();
    const ttlMs = 300;
    const lookup = cachedTokenLookup(find, { ttlMs });
    expect(await lookup(token)).toMatchObject({ tenantId: 2, scope: "read" });
    expect(await revokeOperatorToken(ledger.db, publicId)).toBe(true);
    await sleep(ttlMs);
    expect(await lookup(token)).toBeUndefined();
    expect(counted.reads).toBe(2);
  });

  it("remembers unknown tokens too, and concurrent requests with one token share one read", async () => {
    const { counted, find } = countedLookup();
    const lookup = cachedTokenLookup(find, { ttlMs: 60_000 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => lookup("wop_unknown_token")));
    expect(answers).toEqual(Array(8).fill(undefined));
    expect(await lookup("wop_unknown_token")).toBeUndefined();
    expect(counted.reads).toBe(1);
  });

  it("keeps at most maxEntries answers (the oldest goes first), and 0 reads on every request", async () => {
    const { counted, find } = countedLookup();
    const bounded = cachedTokenLookup(find, { ttlMs: 60_000, maxEntries: 2 });
    for (const token of ["wop_a", "wop_b", "wop_c", "wop_c", "wop_b"]) await bounded(token);
    expect(counted.reads).toBe(3);
    await bounded("wop_a"); // dropped when wop_c came in
    expect(counted.reads).toBe(4);

    const uncached = countedLookup();
    const everyTime = cachedTokenLookup(uncached.find, { ttlMs: 0 });
    for (let call = 0; call < 3; call++) await everyTime("wop_a");
    expect(uncached.counted.reads).toBe(3);
  });

  it("does not remember a failed read: the next request reads again", async () => {
    // A database that is not there: a real connection failure, not a stand-in.
    const nowhere = createDatabase({ url: "mysql://root@127.0.0.1:1/wallet", poolSize: 1 });
    let reads = 0;
    const lookup = cachedTokenLookup(
      (token) => {
        reads += 1;
        return findOperatorToken(nowhere.db, token);
      },
      { ttlMs: 60_000 },
    );
    try {
      await expect(lookup("wop_any")).rejects.toThrow();
      await expect(lookup("wop_any")).rejects.toThrow();
      expect(reads).toBe(2);
    } finally {
      await nowhere.close();
    }
  });
});
