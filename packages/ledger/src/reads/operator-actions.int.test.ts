import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestLedger } from "../testing/test-ledger.ts";
import { listOperatorActions } from "./operator-actions.ts";

/**
 * `GET /v1/audit` pages newest first by `created_at`, then `id`. It used to continue a page with
 * `id < next_before` (the last line's id): where ids are not in time order (TiDB allocates them in
 * batches per server) or lines share a millisecond, the next page skipped lines or repeated them.
 */
const ledger = useTestLedger();

/** Lines `[id, created_at]` of operator 1, seeded as root with their ids and times as given. */
const lines: Array<[number, string]> = [
  [10, "2030-01-01 00:00:01.000"], // the newest time, a low id (another server's batch)
  [60, "2030-01-01 00:00:01.000"], // the same millisecond
  [20, "2030-01-01 00:00:00.900"],
  [30, "2030-01-01 00:00:00.900"],
  [40, "2030-01-01 00:00:00.900"],
  [5, "2030-01-01 00:00:00.800"],
  [50, "2030-01-01 00:00:00.700"],
  [70, "2029-12-31 23:59:59.999"],
];
/** The trail's order: newest first, the higher id first within a millisecond. */
const listed = [60, 10, 40, 30, 20, 5, 50, 70];

async function seedLines(): Promise<void> {
  for (const [id, at] of lines)
    await ledger.db.execute(sql`
      INSERT INTO operator_actions (id, tenant_id, action, subject, actor, detail, created_at)
      VALUES (${id}, 1, 'launch', ${`line-${id}`}, 'token:abc', '{}', ${at})`);
  // Another operator's lines in between: never on operator 1's pages, and never moving its cursor.
  await ledger.db.execute(sql`
    INSERT INTO operator_actions (id, tenant_id, action, subject, actor, detail, created_at)
    VALUES (35, 2, 'launch', 'other', 'token:xyz', '{}', '2030-01-01 00:00:00.900'),
           (8, 2, 'launch', 'other', 'token:xyz', '{}', '2030-01-01 00:00:02.000')`);
}

/** Every page of operator 1's trail, `limit` lines at a time, from `before`. */
async function pages(limit: number, before?: string): Promise<number[][]> {
  const seen: number[][] = [];
  for (let next = before, more = true; more; ) {
    const page = await listOperatorActions(ledger.ctx.db, { tenantId: 1, limit, before: next });
    seen.push(page.actions.map((line) => line.id));
    next = page.next_before ?? undefined;
    more = page.next_before !== null;
    if (seen.length > 20) throw new Error("the cursor does not advance");
  }
  return seen;
}

describe("the audit trail's pages (issue 42)", () => {
  beforeAll(seedLines);

  it("lists every line exactly once, in the trail's order, at any page size, though ids are out of time order and times tie", async () => {
    expect(await pages(2)).toEqual([
      [60, 10],
      [40, 30],
      [20, 5],
      [50, 70],
    ]);
    for (const limit of [1, 3, 7, 8, 50]) expect((await pages(limit)).flat()).toEqual(listed);
    // A full last page says so: no cursor to an empty page.
    expect(await pages(4)).toEqual([listed.slice(0, 4), listed.slice(4)]);
  });

  it("a bare line id, the cursor before issue 42, continues after that line; an id no line of the operator has is refused", async () => {
    // The old cursor after a first page of two was 10: the page after it starts at 40, not at id 5.
    expect((await pages(2, "10")).flat()).toEqual(listed.slice(2));
    expect((await pages(3, "30")).flat()).toEqual(listed.slice(4));
    for (const before of ["35", "999"])
      await expect(listOperatorActions(ledger.ctx.db, { tenantId: 1, limit: 2, before })).rejects.toThrow(
        /before: must be a next_before/,
      );
  });
});
