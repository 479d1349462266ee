import type { PoolConnection, ResultSetHeader, RowDataPacket } from "mysql2/promise";
import type { LedgerContext } from "../context.ts";
import { isTransientLockError, mysqlErrno } from "../mysql-errors.ts";

/**
 * The shape the group commit and the side-effect consumers share: a transaction of two round trips
 * on the multi-statement pool (read everything, decide in TypeScript, write everything and COMMIT).
 */

/** One statement of the read round trip, and how its rows go into the caller's state. */
export interface Read<S> {
  sql: string;
  values: unknown[];
  load: (rows: RowDataPacket[], state: S) => void;
}

/** The first round trip: `START TRANSACTION` and every read, each loaded into `state` in order. */
export async function beginAndRead<S>(connection: PoolConnection, reads: Read<S>[], state: S): Promise<S> {
  const [results] = (await connection.query(
    `START TRANSACTION;\n${reads.map((read) => read.sql).join(";\n")}`,
    reads.flatMap((read) => read.values),
  )) as unknown as [Array<RowDataPacket[] | ResultSetHeader>];
  reads.forEach((read, index) => {
    read.load(results[index + 1] as RowDataPacket[], state);
  });
  return state;
}

/**
 * Runs `work` on a connection of the multi-statement pool. On an error it rolls back; when
 * `again(error)` (deadlocks and lock-wait timeouts always) it reruns the whole of `work` after a short
 * jittered pause, up to the configured attempts. A connection that cannot even roll back is destroyed,
 * never handed to the next caller.
 */
export async function multiStatementTransaction<T>(
  ctx: LedgerContext,
  work: (connection: PoolConnection) => Promise<T>,
  again: (error: unknown) => boolean = () => false,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const connection = await ctx.batch.getConnection();
    let healthy = true;
    try {
      return await work(connection);
    } catch (error) {
      healthy = await connection.query("ROLLBACK").then(
        () => true,
        () => false,
      );
      if (!(isTransientLockError(error) || again(error)) || attempt >= ctx.config.transactionAttempts)
        throw error;
      ctx.onTransactionRetry?.(mysqlErrno(error));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    } finally {
      if (healthy) connection.release();
      else connection.destroy();
    }
  }
}
