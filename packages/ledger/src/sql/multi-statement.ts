import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from "mysql2/promise";
import { conflictPause, mayRetry } from "../conflict-retry.ts";
import type { LedgerContext } from "../context.ts";
import { isTransientLockError, mysqlErrno } from "../mysql-errors.ts";

/**
 * The shape the group commit and the side-effect consumers share: a transaction of two round trips
 * on the multi-statement pool (read everything, decide in TypeScript, write everything and COMMIT).
 *
 * Atomic even when the server rolls the transaction back in the middle of a packet. On a Galera
 * cluster written through two nodes, a write replicated from the other node aborts ours (a brute-force
 * abort) while our packet runs; MariaDB then goes on with the packet's remaining statements, and with
 * autocommit on they commit one by one and the packet is answered OK (faults/src/faults/galera/). So:
 * - autocommit is off for the transaction: statements after an abort open a new transaction, which
 *   only a COMMIT can make durable;
 * - the transaction's first statement sets a savepoint, and the COMMIT's packet releases it first:
 *   a transaction begun anew mid-packet has no such savepoint, so the release fails (1305) and the
 *   packet stops before its COMMIT; the caller rolls back and runs the whole transaction again.
 * Measured on MariaDB 10.11 + galera-4: an abort before the release makes the packet fail with 1213
 * and leaves nothing; one between the release and COMMIT fails it with 1213 too (COMMIT has nothing
 * of ours left to commit). No table row, no extra round trip: three statements of a few microseconds.
 * SAVEPOINT, RELEASE SAVEPOINT (1305 when missing) and autocommit are the same on MySQL 8.4, MariaDB
 * and TiDB (v6.2+), so no server is told apart.
 */
const savepoint = "whole_transaction";
/** Opens the transaction; the first round trip's first statements. */
export const beginStatements = ["SET autocommit = 0", "START TRANSACTION", `SAVEPOINT ${savepoint}`];
/** Ends it; the last round trip's last statements (autocommit back on for the pool's plain reads). */
export const commitStatements = [`RELEASE SAVEPOINT ${savepoint}`, "COMMIT", "SET autocommit = 1"];
const rollbackStatements = "ROLLBACK;\nSET autocommit = 1";

/**
 * `COMMIT`, guarded, with `writes` before it in the same round trip (none: the guard and COMMIT alone).
 * `commit` is other statements only under a planted bug (`batch/planted-bugs.ts`).
 */
export async function writeAndCommit(
  connection: PoolConnection,
  writes: Array<{ sql: string; values: unknown[] }>,
  commit: readonly string[] = commitStatements,
): Promise<void> {
  await connection.query(
    [...writes.map((write) => write.sql), ...commit].join(";\n"),
    writes.flatMap((write) => write.values),
  );
}

/** One statement of the read round trip, and how its rows go into the caller's state. */
export interface Read<S> {
  sql: string;
  values: unknown[];
  load: (rows: RowDataPacket[], state: S) => void;
}

/**
 * The first round trip: the transaction opened and every read, each loaded into `state` in order.
 * `begin` is other statements only under a planted bug (`batch/planted-bugs.ts`).
 */
export async function beginAndRead<S>(
  connection: Pick<Pool, "query">,
  reads: Read<S>[],
  state: S,
  begin: readonly string[] = beginStatements,
): Promise<S> {
  const [results] = (await connection.query(
    [...begin, ...reads.map((read) => read.sql)].join(";\n"),
    reads.flatMap((read) => read.values),
  )) as unknown as [Array<RowDataPacket[] | ResultSetHeader>];
  reads.forEach((read, index) => {
    read.load(results[index + begin.length] as RowDataPacket[], state);
  });
  return state;
}

/**
 * Plain reads in one round trip on the pool, no transaction (what they read was committed before),
 * each loaded into `state` in order: the relay's round summaries and the reporting consumer's inputs.
 */
export function readTogether<S>(pool: Pick<Pool, "query">, reads: Read<S>[], state: S): Promise<S> {
  return beginAndRead(pool, reads, state, []);
}

/**
 * Runs `work` on a connection of the multi-statement pool. On an error it rolls back; when
 * `again(error)` (deadlocks and lock-wait timeouts always) it reruns the whole of `work` after a short
 * jittered pause, within the configured budget (`conflict-retry.ts`) counted from `startedAt` (a
 * batch's calls rerun one by one share their batch's). A connection that cannot even roll back is
 * destroyed, never handed to the next caller.
 */
export async function multiStatementTransaction<T>(
  ctx: LedgerContext,
  work: (connection: PoolConnection) => Promise<T>,
  again: (error: unknown) => boolean = () => false,
  startedAt = performance.now(),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const connection = await ctx.batch.getConnection();
    let healthy = true;
    try {
      return await work(connection);
    } catch (error) {
      healthy = await connection.query(rollbackStatements).then(
        () => true,
        () => false,
      );
      const budget = { attempts: ctx.config.transactionAttempts, retryMs: ctx.config.transactionRetryMs };
      if (!(isTransientLockError(error) || again(error)) || !mayRetry(budget, attempt, startedAt))
        throw error;
      ctx.onTransactionRetry?.(mysqlErrno(error));
      await conflictPause(attempt);
    } finally {
      if (healthy) connection.release();
      else connection.destroy();
    }
  }
}
