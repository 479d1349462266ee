import mysql from "mysql2/promise";

/**
 * TEST HELPER: each test database has a migrator `mg_<its name without test_>` and a runtime user
 * `rt_<…>` (30 characters, within MySQL's 32), with the grants of `schema/privileges.ts`. The test
 * setup drops those a crashed run left behind by the time in the name (scripts/vitest-services.ts);
 * the portability gate reads the statements these users sent (`general-log.ts`).
 */
export const runtimeUserPrefix = "rt_";
export const migratorUserPrefix = "mg_";
/**
 * A DBA of a test's own, `ad_<unix seconds>_…`, who runs what `pnpm db:grants` prints (as an
 * operator's admin user would), so that the gate sees those statements too.
 */
export const administratorUserPrefix = "ad_";

/** Runs account statements (CREATE USER, GRANT, DROP USER) as the admin of `url`'s server. */
export async function asServerAdmin(url: string, statements: string[]): Promise<void> {
  const server = new URL(url);
  server.pathname = "/";
  const connection = await mysql.createConnection({ uri: server.toString() });
  try {
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end();
  }
}
