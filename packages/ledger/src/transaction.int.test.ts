import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ER_LOCK_DEADLOCK } from "./mysql-errors.ts";
import { openTestLedger, type TestLedger } from "./testing/ledger-fixtures.ts";
import { withTransaction } from "./transaction.ts";

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await openTestLedger(inject("mysqlServerUrl"));
  await ledger.db.execute(
    sql`INSERT INTO tenants (id, public_key, name) VALUES (901, 'lock-a', 'a'), (902, 'lock-b', 'b')`,
  );
});
afterAll(async () => {
  await ledger.drop();
});

describe("withTransaction", () => {
  it("a deadlock victim runs its whole transaction again and both transactions commit", async () => {
    const retries: Array<number | undefined> = [];
    const attempts = { first: 0, second: 0 };
    let bothHoldOne!: () => void;
    const barrier = new Promise<void>((resolve) => {
      let arrived = 0;
      bothHoldOne = () => {
        arrived += 1;
        if (arrived === 2) resolve();
      };
    });
    const lockInOrder = (name: "first" | "second", ids: [number, number]) =>
      withTransaction(
        ledger.db,
        async (tx) => {
          attempts[name] += 1;
          await tx.execute(
            sql`UPDATE tenants SET name = ${`${name}-${attempts[name]}`} WHERE id = ${ids[0]}`,
          );
          if (attempts[name] === 1) {
            bothHoldOne();
            await barrier;
          }
          await tx.execute(
            sql`UPDATE tenants SET name = ${`${name}-${attempts[name]}`} WHERE id = ${ids[1]}`,
          );
        },
        { attempts: 5, onRetry: (errno) => retries.push(errno) },
      );
    await Promise.all([lockInOrder("first", [901, 902]), lockInOrder("second", [902, 901])]);
    expect(retries).toEqual([ER_LOCK_DEADLOCK]);
    expect(attempts.first + attempts.second).toBe(3);
    const [rows] = (await ledger.db.execute(
      sql`SELECT name FROM tenants WHERE id IN (901, 902)`,
    )) as unknown as [Array<{ name: string }>];
    // Whoever retried wrote last, over both rows.
    const winner = attempts.first === 2 ? "first-2" : "second-2";
    expect(rows.map((row) => row.name)).toEqual([winner, winner]);
  });

  it("does not retry other errors", async () => {
    let runs = 0;
    await expect(
      withTransaction(ledger.db, async (tx) => {
        runs += 1;
        await tx.execute(sql`SELECT * FROM no_such_table`);
      }),
    ).rejects.toThrow();
    expect(runs).toBe(1);
  });
});
