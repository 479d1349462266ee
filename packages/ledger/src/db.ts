import { drizzle, type MySql2Database } from "drizzle-orm/mysql2";
import mysql, { type Pool } from "mysql2/promise";
import { Fence } from "./fence.ts";
import { RoleWatch } from "./role-watch.ts";
import * as schema from "./schema/index.ts";
import { gateSessions, SessionWatch } from "./session-gate.ts";
import { drizzleClient, isText } from "./traced-pool.ts";

export type Db = MySql2Database<typeof schema>;
/** A transaction handle: what a verb's body receives from `withTransaction`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface DbOptions {
  url: string;
  poolSize?: number;
  /** Seconds a statement waits for a row lock; the callback deadline is seconds, not InnoDB's 50. */
  lockWaitTimeoutSeconds?: number;
  /** Told why a new connection was closed before serving, other than its session (a read-only server). */
  onConnectionError?: (error: Error) => void;
  /**
   * Told once when new connections are refused because their session cannot be set as the ledger
   * needs (what is wrong and what to do: `session-needs.ts`), again if that changes, and once with
   * `undefined` when a connection is set up right again. Meanwhile every statement that needs a new
   * connection fails unsent with `DatabaseSessionError`, a 503.
   */
  onSessionChange?: (problems: string | undefined) => void;
  /** A span per statement (only when the process traces: off, the pool is used as is). */
  traceStatements?: boolean;
  /** Connections of the multi-statement pool: the ledger flusher (and its one-by-one reruns) and the side-effect consumers. */
  batchPoolSize?: number;
  /**
   * Serve only from a server that takes writes. Its writes would be refused anyway (`readOnlyErrnos`);
   * this also keeps its reads out: a stored answer replayed, or a balance, from a server the ledger
   * moved away from (a replica, a demoted primary back after a failover, a server a failover tool
   * fenced). Two guards: a connection that finds itself on a read-only server when the pool opens it
   * is closed before any query runs on it; and a role watch (`role-watch.ts`) reads the server's role
   * every `roleCheckMs` on a connection of its own and, when it is read-only, fences both pools
   * (`fence.ts`): every statement fails at once, a 503 the platform resends, until the server (or the
   * one the address names by then) is writable. The apps set it; the command-line tools do not
   * (verifying a replica is a fine thing to do), and start no watch.
   */
  writableOnly?: boolean;
  /** With `writableOnly`: how often the server's role is read, in ms (`DB_ROLE_CHECK_MS`; 250 by default). */
  roleCheckMs?: number;
  /** With `writableOnly`: told once when the pools are fenced (true) and once when served again (false). */
  onFenceChange?: (fenced: boolean) => void;
}

export interface Database {
  db: Db;
  /** A few connections that take several statements per round trip: the group-committed hot path (batch/). */
  batch: Pool;
  /** Whether every statement is refused now, the server found read-only (`writableOnly`). */
  fenced: () => boolean;
  /** Whether the last connection the pools opened was refused its session (`onSessionChange`). */
  sessionRefused: () => boolean;
  close: () => Promise<void>;
}

/**
 * One pool per process. Every connection is set up once, when the pool opens it, instead of per
 * transaction (READ COMMITTED, UTC, the lock wait, sql_mode: `session-needs.ts`), and serves only
 * once its session reads back as the ledger needs (`session-gate.ts`).
 */
export function createDatabase(options: DbOptions): Database {
  const lockWait = Math.max(1, Math.round(options.lockWaitTimeoutSeconds ?? 3));
  const fence = options.writableOnly ? new Fence() : undefined;
  const sessions = new SessionWatch(options.onSessionChange);
  const watch =
    fence &&
    new RoleWatch({
      url: options.url,
      everyMs: options.roleCheckMs ?? 250,
      fence,
      onChange: options.onFenceChange,
    });
  const gate = { lockWait, sessions, fence };
  const pool = openPool(options, gate, { connectionLimit: options.poolSize ?? 10 });
  // Several statements per round trip, so a batch is two round trips whatever its size. Only
  // batch/ and side-effects/ send SQL here, every value bound through placeholders (no statement
  // text from input).
  const batch = openPool(options, gate, {
    // The ledger's flusher (and its one-by-one reruns) and the side-effect consumers (4 topics × 2).
    connectionLimit: options.batchPoolSize ?? 12,
    multipleStatements: true,
  });
  const client = drizzleClient(fence ? fence.guard(pool) : pool, options.traceStatements ?? false);
  const db = drizzle({ client, schema, mode: "default" });
  const guardedBatch = fence ? fence.guard(batch) : batch;
  return {
    db,
    batch: options.traceStatements ? drizzleClient(guardedBatch, true) : guardedBatch,
    fenced: () => fence?.raised ?? false,
    sessionRefused: () => sessions.refused,
    close: async () => {
      watch?.stop();
      await Promise.all([pool.end(), batch.end()]);
    },
  };
}

/** A pool whose connections serve only once their session is set as the ledger needs (`gateSessions`). */
function openPool(
  options: DbOptions,
  gate: { lockWait: number; sessions: SessionWatch; fence?: Fence },
  extra: mysql.PoolOptions,
): Pool {
  const pool = mysql.createPool({
    uri: options.url,
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: "Z",
    enableKeepAlive: true,
    // No stack captured per query: it was 5% of a worker's CPU under load (pnpm bench), and a
    // MySQL error still carries its code and message; our own errors keep their stacks.
    trace: false,
    typeCast: idsAsText,
    ...extra,
  });
  return gateSessions(pool, {
    lockWaitSeconds: gate.lockWait,
    watch: gate.sessions,
    fence: gate.fence,
    report: options.onConnectionError ?? (() => {}),
  });
}

/**
 * Ids are stored as their UTF-8 bytes (VARBINARY, `schema/columns.ts`), which mysql2 reads as
 * Buffers: every CHAR/VARCHAR/BINARY/VARBINARY value is read as UTF-8 text instead, so an id is a
 * string everywhere (raw reads here; drizzle's through `drizzleClient`). Other types as mysql2 reads them.
 */
function idsAsText(
  field: { type: string; string: (encoding?: string) => string | null },
  next: () => unknown,
) {
  return isText(field) ? field.string("utf8") : next();
}
