import { createDatabase } from "@wallet/ledger/db";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import {
  createOperatorToken,
  findOperatorToken,
  revokeOperatorToken,
} from "@wallet/ledger/verbs/operator-tokens";
import { describe, expect, it } from "vitest";
import { tokenLookup } from "./token-lookup.ts";

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

describe("the operator token lookup", () => {
  it("reads a live token on every request: revoked, the very next lookup refuses it", async () => {
    const { token, publicId } = await createOperatorToken(ledger.db, { tenantId: 1, scope: "write" });
    const { counted, find } = countedLookup();
    const lookup = tokenLookup(find, { unknownTtlMs: 60_000 });
    const principal = { tenantId: 1, scope: "write", actor: `token:${publicId}` };
    for (let call = 0; call < 5; call++) expect(await lookup(token)).toEqual(principal);
    expect(counted.reads).toBe(5);

    expect(await revokeOperatorToken(ledger.db, publicId)).toBe(true);
    expect(await lookup(token)).toBeUndefined();
    // Refused now, refused for good: the refusal is remembered, no read.
    expect(await lookup(token)).toBeUndefined();
    expect(counted.reads).toBe(6);
  });

  it("a lookup begun after the revocation never shares a read begun before it", async () => {
    const { token, publicId } = await createOperatorToken(ledger.db, { tenantId: 2, scope: "read" });
    const lookup = tokenLookup((given) => findOperatorToken(ledger.ctx.db, given), { unknownTtlMs: 60_000 });
    const before = lookup(token);
    expect(await revokeOperatorToken(ledger.db, publicId)).toBe(true);
    const after = lookup(token);
    // The first began before the revoke returned and may see either; the second only the revocation.
    await before;
    expect(await after).toBeUndefined();
  });

  it("remembers an unknown token's refusal for unknownTtlMs, at most maxEntries of them (the oldest goes first); 0 reads every time", async () => {
    const { counted, find } = countedLookup();
    let now = 1_000_000;
    const lookup = tokenLookup(find, { unknownTtlMs: 1_000, maxEntries: 2, now: () => now });
    for (const token of ["wop_a", "wop_a", "wop_b", "wop_c", "wop_c", "wop_b"]) await lookup(token);
    expect(counted.reads).toBe(3);
    await lookup("wop_a"); // dropped when wop_c came in
    expect(counted.reads).toBe(4);
    now += 1_000;
    await lookup("wop_b"); // its refusal has run out
    expect(counted.reads).toBe(5);

    const uncached = countedLookup();
    const everyTime = tokenLookup(uncached.find, { unknownTtlMs: 0 });
    for (let call = 0; call < 3; call++) expect(await everyTime("wop_a")).toBeUndefined();
    expect(uncached.counted.reads).toBe(3);
  });

  it("does not remember a failed read: the next request reads again", async () => {
    // A database that is not there: a real connection failure, not a stand-in.
    const nowhere = createDatabase({ url: "mysql://root@127.0.0.1:1/wallet", poolSize: 1 });
    let reads = 0;
    const lookup = tokenLookup(
      (token) => {
        reads += 1;
        return findOperatorToken(nowhere.db, token);
      },
      { unknownTtlMs: 60_000 },
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
