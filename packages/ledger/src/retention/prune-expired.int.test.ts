import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../db.ts";
import {
  piecesLeft,
  prunedTableCounts,
  retainedNames,
  seedOpenRefusedCloses,
  seedOperatorAction,
  seedOperatorActions,
  seedOperatorToken,
  seedRefusedClose,
  seedRefusedCloseOfSize,
} from "../testing/retention-rows.ts";
import { rowsRead } from "../testing/rows-read.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { type Pruned, type PrunedTable, pruneExpired } from "./prune-expired.ts";

// Rows are seeded as root (`ledger.db`) with their times in the past; the pruner runs as the
// runtime user (`ledger.ctx.db`), so a DELETE its grants do not allow fails here.
const ledger = useTestLedger();
// The index test counts the rows a prune reads among thousands of its own: a database of its own.
const indexed = useTestLedger();
const DAY = 86_400;

/** Every chunk's count, pruning until a chunk comes back short (as the worker's loop does). */
async function pruneAll(table: PrunedTable, days: number, chunk: number): Promise<number[]> {
  const chunks: number[] = [];
  for (let more = true; more; ) {
    const result = await pruneExpired(ledger.ctx.db, table, days * DAY, chunk);
    chunks.push(result.deleted);
    more = result.more;
  }
  return chunks;
}

describe("retention of the audit trail, refused closes and revoked tokens", () => {
  it("deletes operator actions older than the period, oldest first, a chunk per statement; younger ones stay", async () => {
    for (let i = 1; i <= 7; i++) await seedOperatorAction(ledger.db, `a-old-${i}`, 401, 1 + (i % 2));
    for (let i = 1; i <= 3; i++) await seedOperatorAction(ledger.db, `a-young-${i}`, 399);
    expect(await pruneAll("operator_actions", 400, 3)).toEqual([3, 3, 1]);
    expect(await pruneExpired(ledger.ctx.db, "operator_actions", 400 * DAY, 3)).toEqual({
      deleted: 0,
      more: false,
    });
    expect((await retainedNames(ledger.db, "a-")).operator_actions).toEqual([
      "a-young-1",
      "a-young-2",
      "a-young-3",
    ]);
  });

  it("deletes refusals resolved longer ago than the period, at most `chunk` a statement; unresolved ones stay however old", async () => {
    for (let i = 1; i <= 45; i++)
      await seedRefusedClose(ledger.db, `r-resolved-old-${i}`, { refused: 200, resolved: 91 });
    // Refused long ago but resolved within the period: kept until 90 days after its resolution.
    await seedRefusedClose(ledger.db, "r-resolved-recently", { refused: 500, resolved: 10 });
    // Never resolved: the only trace of that round's close, kept.
    await seedRefusedClose(ledger.db, "r-unresolved-ancient", { refused: 2_000, resolved: null });
    expect(await pruneAll("refused_closes", 90, 20)).toEqual([20, 20, 5]);
    expect((await retainedNames(ledger.db, "r-")).refused_closes).toEqual([
      "r-resolved-recently",
      "r-unresolved-ancient",
    ]);
  });

  it("deletes tokens revoked longer ago than the period; a live token stays however old", async () => {
    await seedOperatorToken(ledger.db, "t-revoked-long-ago", 401);
    await seedOperatorToken(ledger.db, "t-revoked-long-ago-too", 500);
    await seedOperatorToken(ledger.db, "t-revoked-recently", 30);
    await seedOperatorToken(ledger.db, "t-live", null);
    expect(await pruneAll("operator_api_tokens", 400, 1)).toEqual([1, 1, 0]);
    expect((await retainedNames(ledger.db, "t-")).operator_api_tokens).toEqual([
      "t-live",
      "t-revoked-recently",
    ]);
  });
});

describe("refused closes are deleted in chunks of bytes, not rows (issue 42)", () => {
  const KiB = 1024;
  /** What a seeded row weighs: its body and message, the bound of its other columns, its pieces. */
  const weight = (body: number, pieces = 0) => body + "arrays differ".length + 4096 + pieces * 128 * KiB;

  /** Each chunk's names, pruning as the worker does (each chunk after the last), `budget` bytes a chunk. */
  async function chunksOf(prefix: string, budgetBytes?: number): Promise<string[][]> {
    const chunks: string[][] = [];
    let left = (await retainedNames(ledger.db, prefix)).refused_closes;
    for (let more = true, after: Pruned["after"]; more; ) {
      const pruned = await pruneExpired(ledger.ctx.db, "refused_closes", 90 * DAY, 500, {
        after,
        budgetBytes,
      });
      const now = (await retainedNames(ledger.db, prefix)).refused_closes;
      chunks.push(left.filter((name) => !now.includes(name)));
      expect(pruned.deleted).toBe(left.length - now.length);
      ({ more, after } = pruned);
      left = now;
    }
    return chunks;
  }

  it("each DELETE takes the oldest rows whose bytes fit the budget; a row past it goes alone, its pieces with it", async () => {
    const sizes: Array<[string, number, number]> = [
      ["b-1", 20_000, 0],
      ["b-2", 20_000, 0],
      ["b-3", 10_000, 0],
      ["b-4", 30_000, 0],
      ["b-5", 100_000, 0], // past the budget by itself
      ["b-6", 2_000, 1], // its body in a piece: at most 128 KiB more
      ["b-7", 8_000, 0],
      ["b-8", 8_000, 0],
    ];
    for (const [index, [name, body, pieces]] of sizes.entries())
      await seedRefusedCloseOfSize(ledger.db, name, 100 - index / 100, body, pieces);
    const budget = 64 * KiB;
    const chunks = await chunksOf("b-", budget);
    expect(chunks).toEqual([["b-1", "b-2", "b-3"], ["b-4"], ["b-5"], ["b-6"], ["b-7", "b-8"]]);
    const weighs = new Map(sizes.map(([name, body, pieces]) => [name, weight(body, pieces)]));
    for (const chunk of chunks) {
      const bytes = chunk.reduce((sum, name) => sum + (weighs.get(name) ?? 0), 0);
      // Within the budget, or one row alone that is past it by itself.
      expect({ chunk, fits: bytes <= budget || chunk.length === 1 }).toEqual({ chunk, fits: true });
    }
    expect(await piecesLeft(ledger.db, "b-6")).toBe(0);
  });

  it("at the product's budget (8 MiB), rows of 3 MiB go two by two (the 20-row chunks put 60 MiB of them in one DELETE)", async () => {
    for (let i = 1; i <= 5; i++)
      await seedRefusedCloseOfSize(ledger.db, `m-${i}`, 100 - i / 100, 3 * 1024 * KiB);
    expect(await chunksOf("m-")).toEqual([["m-1", "m-2"], ["m-3", "m-4"], ["m-5"]]);
  });
});

describe("a prune reads an index, not the table", () => {
  // One connection (the runtime user's), so its session counters see exactly the statements under test.
  let single: Database;
  beforeAll(async () => {
    single = createDatabase({ url: indexed.url, poolSize: 1 });
    await seedOperatorActions(indexed.db, "young-", 3_000, 1);
    await seedOpenRefusedCloses(indexed.db, "open-", 3_000, 1_000);
    await seedOperatorAction(indexed.db, "old-1", 500);
    await seedOperatorAction(indexed.db, "old-2", 500);
    await seedRefusedClose(indexed.db, "resolved-old", { refused: 200, resolved: 100 });
  });
  afterAll(async () => {
    await single?.close();
  });

  it("the audit trail's and the refusals' prunes each read a handful of rows among 3,000 that stay", async () => {
    const deleted: Record<string, number> = {};
    const reads = {
      actions: await rowsRead(single.db, async () => {
        deleted.actions = (await pruneExpired(single.db, "operator_actions", 400 * DAY)).deleted;
      }),
      refusals: await rowsRead(single.db, async () => {
        deleted.refusals = (await pruneExpired(single.db, "refused_closes", 90 * DAY)).deleted;
      }),
      // Nothing left to delete: still no scan.
      actionsAgain: await rowsRead(single.db, () => pruneExpired(single.db, "operator_actions", 400 * DAY)),
      refusalsAgain: await rowsRead(single.db, () => pruneExpired(single.db, "refused_closes", 90 * DAY)),
    };
    for (const [query, rows] of Object.entries(reads))
      expect({ query, rows: rows < 50 }).toEqual({ query, rows: true });
    expect(deleted).toEqual({ actions: 2, refusals: 1 });
    expect(await prunedTableCounts(indexed.db)).toEqual({
      operator_actions: 3_000,
      refused_closes: 3_000,
      operator_api_tokens: 0,
    });
  });
});
