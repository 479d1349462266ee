import type { Pool, PoolConnection } from "mysql2/promise";
import { DATABASE_FENCED, mysqlErrno, readOnlyErrnos } from "./mysql-errors.ts";
import { onAcquiredConnection } from "./pool-statement.ts";
import { type Run, wrapStatements } from "./traced-pool.ts";

/** What a statement of a fenced Database gets, at once and unsent: a 503 the platform resends. */
export class DatabaseFencedError extends Error {
  readonly code = DATABASE_FENCED;
  constructor() {
    super("the database server was found read-only: nothing is sent to it until it is writable again; retry");
    this.name = "DatabaseFencedError";
  }
}

const isReadOnlyError = (error: unknown) => readOnlyErrnos.has(mysqlErrno(error) ?? 0);

/**
 * A Database's fence (`createDatabase` with `writableOnly`; `role-watch.ts` raises and lowers it). While
 * it is up, every statement of the pools it guards, and every connection asked of them, fails at once
 * with `DatabaseFencedError`, unsent: no read (a stored answer replayed, a balance) and no write reaches
 * the read-only server. Raising it also retires every connection opened before: a borrowed one refuses
 * its next statement even after the fence is lowered and is closed when released, an idle one is closed
 * when next taken. So once it
 * is lowered, every statement goes out on a connection opened since, to whatever server the address
 * names by then. A connection's statements are checked as they are sent, a boolean and a number: the
 * cost is nothing next to a round trip (docs/performance.md, issue 39).
 */
export class Fence {
  private up = false;
  /** How many times the fence was raised: a connection opened in an earlier round is never used again. */
  private round = 0;
  private readonly openedIn = new WeakMap<object, number>();
  /** Called when a statement meets a read-only error: the role watch looks at once, not at its next tick. */
  recheck: () => void = () => {};

  get raised(): boolean {
    return this.up;
  }

  /** Raises the fence; false when it was up already. */
  raise(): boolean {
    if (this.up) return false;
    this.up = true;
    this.round += 1;
    return true;
  }

  /** Lowers the fence; false when it was down already. */
  lower(): boolean {
    if (!this.up) return false;
    this.up = false;
    return true;
  }

  /** `pool` behind the fence: what `createDatabase` hands out in its place. */
  guard(pool: Pool): Pool {
    // mysql2's promise pool re-emits the core connection, the `connection` of what getConnection gives.
    // One opened while the fence is up (for a caller that queued before) reached the read-only server.
    pool.on("connection", (core) => this.openedIn.set(core, this.up ? -1 : this.round));
    const acquire = async (): Promise<PoolConnection> => {
      for (;;) {
        if (this.up) throw new DatabaseFencedError();
        const connection = await pool.getConnection();
        if (this.current(connection)) {
          // Retired while borrowed: closed, never handed to the next caller (a transaction the fence
          // cut short may still be open on it: its ROLLBACK is refused too).
          const release = connection.release.bind(connection);
          connection.release = () => (this.current(connection) ? release() : connection.destroy());
          return connection;
        }
        // Opened before the last fence, or the fence went up while this caller waited.
        connection.destroy();
      }
    };
    const send =
      (connection: PoolConnection, method: "query" | "execute"): Run =>
      (statement, ...rest) => {
        if (!this.current(connection)) return Promise.reject(new DatabaseFencedError());
        return (connection[method] as Run).call(connection, statement, ...rest).catch((error: unknown) => {
          if (isReadOnlyError(error)) this.recheck();
          throw error;
        });
      };
    return wrapStatements(
      pool,
      (target, method) =>
        // A statement on the pool itself takes a connection through the fence too.
        target === pool
          ? onAcquiredConnection(acquire, (connection) => send(connection, method))
          : send(target as PoolConnection, method),
      acquire,
    );
  }

  /** Not fenced, and opened since the fence was last raised. */
  private current(connection: PoolConnection): boolean {
    return !this.up && this.openedIn.get(connection.connection) === this.round;
  }
}
