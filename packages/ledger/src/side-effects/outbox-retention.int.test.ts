import { closeRoundEventId } from "@wallet/contracts/side-effects";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database, type Db } from "../db.ts";
import { roundStatus } from "../reads/round-status.ts";
import { seedOutbox } from "../testing/outbox-seed.ts";
import { rowsRead } from "../testing/rows-read.ts";
import { useTestLedger } from "../testing/test-ledger.ts";
import {
  markApplied,
  maxPruneChunk,
  outboxBacklog,
  outboxPruneRows,
  pruneAppliedOutbox,
  relayOutbox,
  requeueUnapplied,
} from "./outbox-queries.ts";

const ledger = useTestLedger();
// The index test counts rows among its own 10,000: a database of its own.
const indexed = useTestLedger();
const DAY = 86_400;

async function remainingEvents(db: Db, prefixes: string[]): Promise<string[]> {
  const [rows] = (await db.execute(sql`SELECT event_id FROM outbox ORDER BY event_id`)) as unknown as [
    Array<{ event_id: string }>,
  ];
  return rows.map((row) => row.event_id).filter((id) => prefixes.some((prefix) => id.startsWith(prefix)));
}

describe("outbox retention", () => {
  it("deletes only applied rows past their retention, a chunk per statement; the rest and the receipts stay", async () => {
    const { db } = ledger;
    await seedOutbox(db, "old-", 7, { applied: 8, published: 8 });
    await seedOutbox(db, "recent-", 3, { applied: 1, published: 1 });
    await seedOutbox(db, "stuck-", 2, { applied: null, published: 9 });
    await seedOutbox(db, "unpublished-", 1, { applied: null, published: null });
    await db.execute(
      sql`INSERT INTO side_effect_receipts (topic, event_id) VALUES ('loyalty', 'old-1'), ('loyalty', 'old-2')`,
    );

    const chunks: number[] = [];
    for (let deleted = 3; deleted === 3; ) {
      deleted = await pruneAppliedOutbox(db, 7 * DAY, 3);
      chunks.push(deleted);
    }
    expect(chunks).toEqual([3, 3, 1]);
    expect(await pruneAppliedOutbox(db, 7 * DAY, 3)).toBe(0);
    expect(await remainingEvents(db, ["old-", "recent-", "stuck-", "unpublished-"])).toEqual([
      "recent-1",
      "recent-2",
      "recent-3",
      "stuck-1",
      "stuck-2",
      "unpublished-1",
    ]);
    const [receipts] = (await db.execute(sql`SELECT COUNT(*) AS n FROM side_effect_receipts`)) as unknown as [
      Array<{ n: number }>,
    ];
    expect(Number(receipts[0]?.n)).toBe(2);
  });
});

describe("outbox retention by bytes (issue 42)", () => {
  it("a chunk takes at most 8 MiB of rows: 1,024 of the largest outbox row, even at OUTBOX_PRUNE_CHUNK's maximum", async () => {
    const { db } = ledger;
    await seedOutbox(db, "bulk-", 1_100, { applied: 8, published: 8 });
    expect(await pruneAppliedOutbox(db, 7 * DAY, maxPruneChunk)).toBe(1_024);
    expect(await pruneAppliedOutbox(db, 7 * DAY, maxPruneChunk)).toBe(76);
    expect(await remainingEvents(db, ["bulk-"])).toEqual([]);
    // What the retention loop compares a chunk with to know it came back full.
    expect([outboxPruneRows(maxPruneChunk), outboxPruneRows(500), outboxPruneRows(0)]).toEqual([
      1_024, 500, 1,
    ]);
  });
});

describe("every outbox query reads an index, not the table", () => {
  // One connection, so its session counters see exactly the statements under test.
  let single: Database;
  beforeAll(async () => {
    single = createDatabase({ url: indexed.url, poolSize: 1 });
    await seedOutbox(indexed.db, "done-", 5_000, { applied: 1, published: 1 });
    // Dead rows (an incident's): published and unapplied like the rows waiting, older than them,
    // and never applied, so never pruned. Issue 39: markApplied, the sweep and the gauge read them all.
    await seedOutbox(indexed.db, "dead-", 5_000, { applied: null, published: 2, dead: 2 });
    await seedOutbox(indexed.db, "waiting-", 2, { applied: null, published: 0.01 });
    await seedOutbox(indexed.db, "new-", 1, { applied: null, published: null });
  });
  afterAll(async () => {
    await single?.close();
  });

  it("markApplied, the backlog gauge, the sweep, the relay, the pruner and a round's status each read a handful of rows among 5,000 applied and 5,000 dead", async () => {
    const ctx = { ...indexed.ctx, db: single.db };
    const reads = {
      markApplied: await rowsRead(single.db, () => markApplied(single.db)),
      backlog: await rowsRead(single.db, () => outboxBacklog(single.db)),
      sweep: await rowsRead(single.db, () => requeueUnapplied(single.db, 3_600)),
      relay: await rowsRead(single.db, () => relayOutbox(single.db, async () => {})),
      prune: await rowsRead(single.db, () => pruneAppliedOutbox(single.db, 7 * DAY)),
      round: await rowsRead(single.db, () =>
        roundStatus({ ctx, input: { tenantId: 1, roundId: "done-17" } }),
      ),
    };
    // The queries that read 50 rows or more, with what they read: none.
    expect(Object.fromEntries(Object.entries(reads).filter(([, rows]) => rows >= 50))).toEqual({});
    // And they still answer right: three rows unapplied, the oldest of them about 0.01 day old.
    const backlog = await outboxBacklog(single.db);
    expect(backlog.pending).toBe(3);
    expect(backlog.oldestAgeSeconds).toBeGreaterThan(0.01 * DAY - 60);
    expect(closeRoundEventId(1, "r")).toBe("close-round:1:r");
  });
});
