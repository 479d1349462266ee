import { MigrationRefused, migrateDatabase } from "../migrate.ts";
import { cliEnv } from "./env.ts";

const started = Date.now();
const where = new URL(cliEnv.MIGRATE_DATABASE_URL);
try {
  const { applied } = await migrateDatabase(cliEnv.MIGRATE_DATABASE_URL, {
    log: (line) => console.log(line),
  });
  console.log(
    `${applied.length === 0 ? "schema up to date" : `applied ${applied.join(", ")}`} on ${where.host}${where.pathname} in ${Date.now() - started} ms`,
  );
} catch (error) {
  // A refusal says what to do; anything else is the server's own error, its message whole.
  console.error(
    `db:migrate ${error instanceof MigrationRefused ? "refused" : "failed"}: ${(error as Error).message}`,
  );
  process.exitCode = error instanceof MigrationRefused ? 2 : 1;
}
