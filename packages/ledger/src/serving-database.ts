import type { Logger } from "@wallet/telemetry/logger";
import { z } from "zod";
import { createDatabase, type Database, type DbOptions } from "./db.ts";

/** The database settings of the processes that serve from it (worker, operator API); spread into each app's env schema. */
export const servingDatabaseEnvShape = {
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  /**
   * How often each process reads its server's role (`@@global.read_only`, one SELECT on a connection
   * of its own). A server set read-only is served nothing more, no read and no write, within about this
   * long plus a round trip (docs/databases.md). At most 1 s: that is the promise.
   */
  DB_ROLE_CHECK_MS: z.coerce.number().int().min(20).max(1_000).default(250),
};

/**
 * The Database a serving process opens (the worker, its side-effect thread, the operator API): it
 * serves only from a writable server (`writableOnly`), and says once in its log when it finds the
 * server read-only and refuses everything, and once when it serves again; likewise when its new
 * connections are refused their session (`session-gate.ts`). The command-line tools open theirs with
 * `createDatabase` as it is: no role watch, a replica readable, a refused session their error.
 */
export function servingDatabase(
  env: { DATABASE_URL: string; DB_ROLE_CHECK_MS: number },
  logger: Logger,
  options: Pick<DbOptions, "poolSize" | "traceStatements">,
): Database {
  return createDatabase({
    ...options,
    url: env.DATABASE_URL,
    writableOnly: true,
    roleCheckMs: env.DB_ROLE_CHECK_MS,
    onConnectionError: (error) => logger.error({ err: error }, "database session setup failed"),
    onSessionChange: (problems) =>
      problems
        ? logger.error(
            { problems },
            `database session refused: ${problems}; every query that needs a new connection is refused (503) until a connection's session reads back as the ledger needs`,
          )
        : logger.info("database session set as the ledger needs again; serving"),
    onFenceChange: (fenced) =>
      fenced
        ? logger.error(
            { roleCheckMs: env.DB_ROLE_CHECK_MS },
            "database fenced: the server is read-only (a replica, or a primary fenced or demoted by a failover); every query is refused (503) until it is writable",
          )
        : logger.info("database fence lifted: the server is writable; serving again"),
  });
}
