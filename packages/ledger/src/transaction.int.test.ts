import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "./db.ts";
import { ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT } from "./mysql-errors.ts";
import { useTestLedger } from "./testing/test-ledger.ts";
import { withTransaction } from "./transaction.ts";

const ledger = useTestLedger();
beforeAll(async () => {
  await ledger.db.execute(
    sql`INSERT INTO tenants (id, public_key, name) VALUES (901, 'lock-a', 'a'), (902, 'lock-b', 'b')`,
  );
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

  it("a lock-wait timeout runs the whole transaction again once the lock is free", async () => {
    const impatient = createDatabase({ url: ledger.url, poolSize: 1, lockWaitTimeoutSeconds: 1 });
    const retries: Array<number | undefined> = [];
    try {
      let holding!: () => void;
      const locked = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const holder = withTransaction(ledger.db, async (tx) => {
        await tx.execute(sql`UPDATE tenants SET name = 'held' WHERE id = 901`);
        holding();
        await new Promise((resolve) => setTimeout(resolve, 1_600));
      });
      await locked;
      await withTransaction(
        impatient.db,
        async (tx) => {
          await tx.execute(sql`UPDATE tenants SET name = 'after-wait' WHERE id = 901`);
        },
        { attempts: 5, onRetry: (errno) => retries.push(errno) },
      );
      await holder;
    } finally {
      await impatient.close();
    }
    expect(retries).toEqual([ER_LOCK_WAIT_TIMEOUT]);
    const [rows] = (await ledger.db.execute(sql`SELECT name FROM tenants WHERE id = 901`)) as unknown as [
      Array<{ name: string }>,
    ];
    expect(rows[0]?.name).toBe("after-wait");
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
