import { sql } from "drizzle-orm";
import type { Db } from "../db.ts";
import { testsOwn } from "./general-log.ts";

/**
 * TEST HELPER: the rows the storage engine handed over (index or table reads) while `work` ran, on a
 * database of ONE connection (so its session counters see only the statements under test), the
 * counter reads themselves left out. How the tests prove a query reads an index, not the table.
 */
export async function rowsRead(single: Db, work: () => Promise<unknown>): Promise<number> {
  const read = async () => {
    // The test's own statement on the product's connection (`testsOwn`): the gate leaves it out.
    const [rows] = (await single.execute(
      sql`${sql.raw(testsOwn)}SHOW SESSION STATUS LIKE 'Handler_read%'`,
    )) as unknown as [Array<{ Value: string }>];
    return rows.reduce((sum, row) => sum + Number(row.Value), 0);
  };
  const a = await read();
  const b = await read();
  await work();
  const c = await read();
  return c - b - (b - a);
}
