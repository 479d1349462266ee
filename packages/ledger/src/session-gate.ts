import type { Pool, PoolConnection } from "mysql2/promise";
import { DatabaseFencedError, type Fence } from "./fence.ts";
import {
  DATABASE_SESSION,
  mysqlErrno,
  serverUnavailableErrnos,
  transactionConflictErrnos,
} from "./mysql-errors.ts";
import { onAcquiredConnection } from "./pool-statement.ts";
import { showVariables, variablesOf } from "./server-flavor.ts";
import { readsReadOnly, sessionProblems, sessionStatements, sessionVariables } from "./session-needs.ts";
import type { Run } from "./traced-pool.ts";

/** What a statement gets, unsent, when its connection's session could not be set as the ledger needs: a 503. */
export class DatabaseSessionError extends Error {
  readonly code = DATABASE_SESSION;
  constructor(readonly problems: string) {
    super(
      `the database session could not be set as the ledger needs: ${problems}. Nothing is sent on such a connection; retry`,
    );
    this.name = "DatabaseSessionError";
  }
}

/**
 * Whether a Database's connections are refused their session now, shared by its two pools: told once
 * when a connection is first refused (with what is wrong, again if that changes) and once when one is
 * set up right again, so a process logs a cause once, not once per connection or statement.
 */
export class SessionWatch {
  private problems: string | undefined;

  constructor(private readonly onChange: (problems: string | undefined) => void = () => {}) {}

  get refused(): boolean {
    return this.problems !== undefined;
  }

  refuse(problems: string): void {
    if (this.problems === problems) return;
    this.problems = problems;
    this.onChange(problems);
  }

  serve(): void {
    if (this.problems === undefined) return;
    this.problems = undefined;
    this.onChange(undefined);
  }
}

export interface SessionGateOptions {
  lockWaitSeconds: number;
  watch: SessionWatch;
  /** `writableOnly`: a connection that reads the server read-only is closed and its borrower fenced. */
  fence?: Fence;
  /** Told what went wrong on a connection that was closed for another cause than its session. */
  report: (error: Error) => void;
}

/** mysql2's core connection, as the pool's `connection` event gives it: `query` takes a callback. */
type CoreConnection = {
  query: (sql: string, done: (error: Error | null, rows?: unknown) => void) => void;
  destroy: () => void;
};

/**
 * `pool` with every connection's session set and checked before anything of a borrower's is sent on
 * it. When the pool opens a connection it sends the session (`sessionStatements`) and reads it back
 * (`sessionVariables`, one statement); a borrower is handed the connection only once the verdict is in
 * (`getConnection`, and `query`/`execute` on the pool itself, which take a connection the same way).
 * A session that could not be set, or reads back other than the ledger needs (`sessionProblems`),
 * closes the connection and fails its borrower with `DatabaseSessionError`, its first statement unsent.
 * The cost is per connection, never per statement: three round trips when the pool opens one.
 */
export function gateSessions(pool: Pool, options: SessionGateOptions): Pool {
  const verdicts = new WeakMap<object, Promise<void>>();
  // mysql2's promise pool re-emits the core connection, the `connection` of what getConnection gives.
  pool.on("connection", (core) => {
    const verdict = setUp(core as unknown as CoreConnection, options);
    // Awaited by the connection's borrower; never left unhandled if it went away.
    verdict.catch(() => {});
    verdicts.set(core, verdict);
  });
  const acquire = async (): Promise<PoolConnection> => {
    const connection = await pool.getConnection();
    await verdicts.get(connection.connection);
    return connection;
  };
  // Only taking a connection is gated: a connection handed out has passed, so its statements go out
  // as they are (no wrapper per statement).
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === "getConnection") return acquire;
      if (property === "query" || property === "execute")
        return onAcquiredConnection(acquire, (connection) => connection[property].bind(connection) as Run);
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Errors a setup statement may meet that are the server or the network failing, not the session. */
const passing = (error: Error) => {
  const errno = mysqlErrno(error);
  return errno === undefined || serverUnavailableErrnos.has(errno) || transactionConflictErrnos.has(errno);
};

/**
 * Sets up one new connection and reads its session back. Resolves when it may serve; otherwise the
 * connection is closed and the promise rejects with what its borrower gets.
 */
function setUp(connection: CoreConnection, options: SessionGateOptions): Promise<void> {
  const { lockWaitSeconds, watch, fence, report } = options;
  const failures: string[] = [];
  let lost: Error | undefined;
  // The core connection runs its commands in order: the setup is queued at once, the read-back last.
  for (const statement of sessionStatements(lockWaitSeconds)) {
    connection.query(statement, (error) => {
      if (!error) return;
      if (passing(error)) lost ??= error;
      else failures.push(`"${statement}" failed: ${error.message}`);
    });
  }
  return new Promise<void>((resolve, reject) => {
    connection.query(showVariables(sessionVariables), (error, rows) => {
      const refuse = (reason: Error) => {
        connection.destroy();
        reject(reason);
      };
      if (lost || (error && passing(error))) return refuse(lost ?? (error as Error));
      const variables = error ? {} : variablesOf(rows);
      if (fence && readsReadOnly(variables)) {
        report(
          new Error("connected to a read-only server (a replica or a fenced primary): connection closed"),
        );
        fence.recheck();
        return refuse(new DatabaseFencedError());
      }
      const problems = [
        ...failures,
        ...(error ? [`reading the session back failed: ${error.message}`] : []),
        ...(failures.length || error ? [] : sessionProblems(variables, lockWaitSeconds)),
      ];
      if (problems.length === 0) {
        watch.serve();
        return resolve();
      }
      const said = problems.join("; ");
      watch.refuse(said);
      refuse(new DatabaseSessionError(said));
    });
  });
}
