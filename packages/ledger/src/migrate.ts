import mysql, { type Connection, type RowDataPacket } from "mysql2/promise";
import { type Migration, migrations } from "./migrations/index.ts";
import { ER_TABLEACCESS_DENIED, mysqlErrno } from "./mysql-errors.ts";
import { flavorVariables, readVariables } from "./server-flavor.ts";
import { checkConstraintsProblem } from "./session-needs.ts";

/** Database name from a `mysql://…/name` URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_$-]{1,64}$/.test(name))
    throw new Error(`DATABASE_URL names no usable database: "${name}"`);
  return name;
}

/** Refused before anything was changed: the message says what to do. */
export class MigrationRefused extends Error {}

export interface MigrateOptions {
  /** How long a second migrator waits for the first to finish (its named lock) before it gives up. */
  lockWaitSeconds?: number;
  log?: (line: string) => void;
  /** TEST HOOK: runs before each statement a migration sends (a test fails one midway). */
  beforeStep?: (migration: string, index: number) => Promise<void>;
}

/** Every table the ledger's tables are made with, and the database's default: exact, and on every server. */
const collation = "utf8mb4_bin";

/**
 * Creates the database in `url` when missing, sets its default character set and collation
 * explicitly (whoever created it: compose's MySQL makes `utf8mb4_0900_ai_ci` databases), and applies
 * the migrations (`migrations/`) not yet recorded in `schema_migrations`. Migrators started together
 * take turns on a named lock: the second waits up to `lockWaitSeconds` (120) and then stops with a
 * message, never running alongside. Each step is skipped when its probe says it already happened, so
 * a run that failed at any statement (MySQL commits DDL at once: no migration can be rolled back) is
 * run again to success. Refuses a TiDB that would not enforce the schema's CHECK constraints.
 */
export async function migrateDatabase(
  url: string,
  options: MigrateOptions = {},
): Promise<{ applied: string[] }> {
  const name = databaseName(url);
  const log = options.log ?? (() => {});
  // One connection throughout, outside any database until it exists: the lock is taken before the
  // database is made, so two first installs do not race to create it.
  const server = new URL(url);
  server.pathname = "/";
  const connection = await mysql.createConnection({ uri: server.toString() });
  try {
    await takeLock(connection, name, options.lockWaitSeconds ?? 120);
    try {
      await requireSettings(connection);
      await ensureDatabase(connection, name);
      await connection.query(`USE \`${name}\``);
      await connection.query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name varchar(64) NOT NULL," +
          " applied_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), PRIMARY KEY (name))" +
          ` ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${collation}`,
      );
      const [done] = await connection.query<RowDataPacket[]>("SELECT name FROM schema_migrations");
      const recorded = new Set(done.map((row) => String(row.name)));
      const applied: string[] = [];
      for (const migration of migrations) {
        if (recorded.has(migration.name)) continue;
        const ran = await apply(connection, migration, options);
        await connection.query("INSERT INTO schema_migrations (name) VALUES (?)", [migration.name]);
        applied.push(migration.name);
        log(`${migration.name}: ${ran} of ${migration.steps.length} statements run`);
      }
      return { applied };
    } finally {
      await connection.query("SELECT RELEASE_LOCK(?)", [lockName(name)]).catch(() => {});
    }
  } finally {
    await connection.end();
  }
}

/** Runs each step whose probe does not say it already happened; returns how many ran. */
async function apply(connection: Connection, migration: Migration, options: MigrateOptions): Promise<number> {
  let ran = 0;
  for (const [index, step] of migration.steps.entries()) {
    if (step.applied && (await step.applied(connection))) continue;
    await options.beforeStep?.(migration.name, index);
    await connection.query(step.sql).catch((error: unknown) => {
      throw triggerDenied(error, step.sql) ?? error;
    });
    ran += 1;
    if (step.applied && !(await step.applied(connection)))
      throw new Error(
        `${migration.name} step ${index + 1} ran but did not take effect: ${step.sql.slice(0, 200)}`,
      );
  }
  return ran;
}

/** A trigger's `SIGNAL SQLSTATE '45000'` (the earlier migrator's journal triggers raise it). */
const ER_SIGNAL_EXCEPTION = 1644;

/**
 * The earlier migrator's triggers are still on this database and the migrator may not drop them: it
 * was given the grants of a fresh install. Said so, with what to run (docs/databases.md, "Users and
 * grants"). MariaDB shows the triggers to it and refuses the DROP (1142); MySQL 8.4 lists a table's
 * triggers in information_schema only to a user with TRIGGER on it, so there the probe sees none, the
 * DROP is skipped, and the journal's numbering meets the trigger's own refusal (1644, its message).
 */
function triggerDenied(error: unknown, sql: string): Error | undefined {
  const errno = mysqlErrno(error);
  const refusedDrop = sql.startsWith("DROP TRIGGER") && errno === ER_TABLEACCESS_DENIED;
  const metTrigger = errno === ER_SIGNAL_EXCEPTION && /journal_entries is append-only/.test(String(error));
  if (!refusedDrop && !metTrigger) return undefined;
  return new Error(
    `${sql} was refused (${(error as Error).message}): this database still has the earlier migrator's triggers, and dropping them needs TRIGGER. Run the migrator part of \`pnpm db:grants --legacy-install\` as the server's admin, then migrate again`,
    { cause: error },
  );
}

const lockName = (database: string) => `wallet_migrate_${database}`.slice(0, 64);

/**
 * The migration lock, its result checked: 1 taken; 0 another migrator held it the whole wait (stop,
 * saying so); NULL an error. GET_LOCK is a session lock on MySQL and MariaDB and cluster-wide on TiDB
 * (whose waits are 1 to 3600 s).
 */
async function takeLock(connection: Connection, database: string, waitSeconds: number): Promise<void> {
  const wait = Math.min(3600, Math.max(1, Math.round(waitSeconds)));
  const [rows] = await connection.query<RowDataPacket[]>("SELECT GET_LOCK(?, ?) AS got", [
    lockName(database),
    wait,
  ]);
  const got = rows[0]?.got;
  if (got === 1 || got === "1") return;
  if (got === 0 || got === "0")
    throw new MigrationRefused(
      `another migrator of ${database} has held its lock (${lockName(database)}) for ${wait} s: run this again once it has finished; nothing was changed`,
    );
  throw new Error(`GET_LOCK(${lockName(database)}) failed (${String(got)})`);
}

/**
 * What the schema needs of the server before anything is created: a TiDB that enforces CHECK
 * constraints (TiDB told by its own variables, whatever its `server-version` makes VERSION() say), or
 * the tables would be made without them. The apps check it again on every connection (`session-needs.ts`).
 */
async function requireSettings(server: Connection): Promise<void> {
  const problem = checkConstraintsProblem(await readVariables(server, flavorVariables));
  if (problem) throw new MigrationRefused(`${problem}, before migrating; nothing was changed`);
}

/** Creates the database if it is missing (a DBA may have made it already), then sets its default collation. */
async function ensureDatabase(server: Connection, name: string): Promise<void> {
  const [rows] = await server.query<RowDataPacket[]>(
    "SELECT DEFAULT_CHARACTER_SET_NAME AS charset, DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
    [name],
  );
  const found = rows[0];
  if (!found) {
    await server.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE ${collation}`);
    return;
  }
  if (found.charset !== "utf8mb4" || found.collation !== collation)
    await server.query(`ALTER DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE ${collation}`);
}

/** Drops a database (tests use their own throwaway databases). */
export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, (server) =>
    server.query(`DROP DATABASE IF EXISTS \`${databaseName(url)}\``).then(() => {}),
  );
}

/** Runs `work` on a connection to the server of `url`, outside any database. */
async function onServer(url: string, work: (server: Connection) => Promise<void>): Promise<void> {
  const server = new URL(url);
  server.pathname = "/";
  const connection = await mysql.createConnection({ uri: server.toString() });
  try {
    await work(connection);
  } finally {
    await connection.end();
  }
}
