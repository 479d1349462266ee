import { sql } from "drizzle-orm";
import mysql from "mysql2/promise";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Tx } from "./db.ts";
import { ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT, mysqlErrno } from "./mysql-errors.ts";
import { testsOwn } from "./testing/general-log.ts";
import { useTestLedger } from "./testing/test-ledger.ts";
import { withTransaction } from "./transaction.ts";

const ledger = useTestLedger();
beforeAll(async () => {
  await ledger.db.execute(
    sql`INSERT INTO tenants (id, public_key, name) VALUES (901, 'lock-a', 'a'), (902, 'lock-b', 'b'), (903, 'lock-c', 'c'), (904, 'lock-d', 'd')`,
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

  // A second writer that beats the transaction more than its 5 attempts in a row (a Galera node
  // written through two nodes: `conflict-retry.ts`). Each of the first 7 attempts is made a real
  // InnoDB deadlock victim: it holds row 901, the writer holds 902 to 904 and waits for 901, and the
  // attempt's update of 902 closes the cycle; InnoDB rolls back the lighter transaction, the attempt.
  describe("a conflict that outlasts the attempts", () => {
    const losses = 7;

    async function runAgainstWriter(retryMs: number) {
      const writer = await mysql.createConnection(ledger.url);
      const retries: Array<number | undefined> = [];
      let attempts = 0;
      try {
        const committed = withTransaction(
          ledger.db,
          async (tx: Tx) => {
            attempts += 1;
            const name = `attempt-${attempts}`;
            await tx.execute(sql`UPDATE tenants SET name = ${name} WHERE id = 901`);
            if (attempts <= losses) await loseTo(writer, tx, attempts);
            await tx.execute(sql`UPDATE tenants SET name = ${name} WHERE id = 902`);
          },
          { attempts: 5, retryMs, onRetry: (errno) => retries.push(errno) },
        );
        const outcome = await committed.then(
          () => "committed",
          (error: unknown) => error,
        );
        const [rows] = (await ledger.db.execute(
          sql`${sql.raw(testsOwn)}SELECT id, name FROM tenants WHERE id IN (901, 902, 903) ORDER BY id`,
        )) as unknown as [Array<{ id: number; name: string }>];
        return { outcome, attempts, retries, names: rows.map((row) => row.name) };
      } finally {
        await writer.end();
      }
    }

    /**
     * The writer takes 902 to 904 and asks for 901 (held by `tx`); `tx` asks for 902. Whichever
     * request closes the cycle, InnoDB rolls back the lighter transaction: `tx`, one row to the
     * writer's three. The writer then gets 901 and commits.
     */
    async function loseTo(writer: mysql.Connection, tx: Tx, attempt: number): Promise<void> {
      const name = `writer-${attempt}`;
      await writer.query(`${testsOwn}START TRANSACTION`);
      // Row by row: an IN list on a table this small may be a scan, locking 901 too (a wait, no cycle).
      for (const id of [902, 903, 904])
        await writer.query(`${testsOwn}UPDATE tenants SET name = ? WHERE id = ?`, [name, id]);
      const waiting = writer
        .query(`${testsOwn}UPDATE tenants SET name = ? WHERE id = 901`, [name])
        .then(() => writer.query(`${testsOwn}COMMIT`));
      try {
        await tx.execute(sql`${sql.raw(testsOwn)}UPDATE tenants SET name = 'never' WHERE id = 902`);
      } finally {
        await waiting;
      }
    }

    it("is run again past its attempts while its budget lasts, and commits once", async () => {
      const run = await runAgainstWriter(10_000);
      expect(run.outcome).toBe("committed");
      expect(run.attempts).toBe(losses + 1);
      expect(run.retries).toEqual(Array.from({ length: losses }, () => ER_LOCK_DEADLOCK));
      // The last attempt's writes over the writer's last commit; nothing of the lost attempts.
      expect(run.names).toEqual([`attempt-${losses + 1}`, `attempt-${losses + 1}`, `writer-${losses}`]);
    });

    it("with no budget, gives up after its attempts with the conflict, having written nothing", async () => {
      const run = await runAgainstWriter(0);
      expect(mysqlErrno(run.outcome)).toBe(ER_LOCK_DEADLOCK);
      expect(run.attempts).toBe(5);
      expect(run.retries).toHaveLength(4);
      expect(run.names).toEqual(["writer-5", "writer-5", "writer-5"]);
    });
  });
});
