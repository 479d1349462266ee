import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../db.ts";
import {
  prunedTableCounts,
  retainedNames,
  seedOpenRefusedCloses,
  seedOperatorAction,
  seedOperatorActions,
  seedOperatorToken,
  seedRefusedClose,
} from "../testing/retention-rows.ts";
import { rowsRead } from "../testing/rows-read.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { type PrunedTable, pruneExpired } from "./prune-expired.ts";

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

  it("deletes refusals resolved longer ago than the period, at most 20 a statement; unresolved ones stay however old", async () => {
    for (let i = 1; i <= 45; i++)
      await seedRefusedClose(ledger.db, `r-resolved-old-${i}`, { refused: 200, resolved: 91 });
    // Refused long ago but resolved within the period: kept until 90 days after its resolution.
    await seedRefusedClose(ledger.db, "r-resolved-recently", { refused: 500, resolved: 10 });
    // Never resolved: the only trace of that round's close, kept.
    await seedRefusedClose(ledger.db, "r-unresolved-ancient", { refused: 2_000, resolved: null });
    // The chunk asked for (500) is capped at the table's 20: stored bodies may be 8 MiB each.
    expect(await pruneAll("refused_closes", 90, 500)).toEqual([20, 20, 5]);
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
