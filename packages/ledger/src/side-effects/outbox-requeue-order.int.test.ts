import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedOutbox } from "../testing/outbox-seed.ts";
import type { Rows } from "../testing/test-ledger.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import { relayOutbox, requeueUnapplied } from "./outbox-queries.ts";

/**
 * The sweep hands back the longest-published unapplied rows first, whatever their ids (issue 42):
 * ids are not in time order on TiDB, and by id a row behind enough failing rows of lower ids, each
 * due again at every sweep, waited until they died. A database of its own: the sweep sees only these rows.
 */
const ledger = useTestLedger();

/** Each row's event id with whether it is published, oldest id first. */
async function published(): Promise<Array<[string, boolean]>> {
  const [rows] = (await ledger.db.execute(
    sql`SELECT event_id, published_at IS NOT NULL AS published FROM outbox ORDER BY id`,
  )) as unknown as Rows<{ event_id: string; published: number }>;
  return rows.map((row) => [row.event_id, Number(row.published) === 1]);
}

describe("the sweep's order (issue 42)", () => {
  it("hands back the row published longest ago first, a higher id included, and a row handed back goes behind the rest", async () => {
    // Lower ids published recently, a higher id published long ago (another TiDB server's batch, or
    // a row whose effect kept failing): all unapplied, all past the sweep's age.
    await seedOutbox(ledger.db, "recent-a", 1, { applied: null, published: 1 });
    await seedOutbox(ledger.db, "recent-b", 1, { applied: null, published: 2 });
    await seedOutbox(ledger.db, "oldest", 1, { applied: null, published: 3 });
    expect(await requeueUnapplied(ledger.ctx.db, 60, 1)).toBe(1);
    expect(await published()).toEqual([
      ["recent-a1", true],
      ["recent-b1", true],
      ["oldest1", false],
    ]);
    expect(await requeueUnapplied(ledger.ctx.db, 60, 1)).toBe(1);
    expect(await published()).toEqual([
      ["recent-a1", true],
      ["recent-b1", false],
      ["oldest1", false],
    ]);
    // Republished now, the two wait behind the one still published a day ago.
    expect(await relayOutbox(ledger.ctx.db, async () => {})).toBe(2);
    expect(await requeueUnapplied(ledger.ctx.db, 60, 1)).toBe(1);
    expect(await published()).toEqual([
      ["recent-a1", false],
      ["recent-b1", true],
      ["oldest1", true],
    ]);
  });
});
