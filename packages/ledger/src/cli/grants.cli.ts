import { parseArgs } from "node:util";
import { databaseName } from "../migrate.ts";
import { migratorGrants, runtimeGrants } from "../schema/privileges.ts";
import { cliEnv } from "./env.ts";

/**
 * `pnpm db:grants`: prints the SQL that makes the wallet's two database users, for a DBA to run as
 * the server's admin (RDS/Aurora's master user, Cloud SQL's root, TiDB's root): no SUPER, no global
 * privilege. The database is DATABASE_URL's; users and host from the options. Passwords are left
 * as placeholders: they never pass through this tool.
 */
const { values } = parseArgs({
  options: {
    "runtime-user": { type: "string", default: "wallet_app" },
    "migrator-user": { type: "string", default: "wallet_migrate" },
    host: { type: "string", default: "%" },
  },
});
const database = databaseName(cliEnv.DATABASE_URL);
const host = values.host;
const lines = [
  `-- The wallet's database users for \`${database}\` (docs/databases.md, "Users and grants").`,
  "-- Replace each <password> first. Run as the server's admin user; nothing here needs SUPER.",
  "",
  "-- 1. The migrator (MIGRATE_DATABASE_URL): before the first `pnpm db:migrate`.",
  ...migratorGrants(database, { user: values["migrator-user"], host, password: "<password>" }).map(
    (s) => `${s};`,
  ),
  "",
  "-- 2. The runtime user (DATABASE_URL of the gateway, worker, operator API and their tools): after",
  "--    `pnpm db:migrate` (a table's grant needs the table), and again after a migration that adds one.",
  "--    The journal is append-only: SELECT and INSERT, no UPDATE or DELETE.",
  ...runtimeGrants(database, { user: values["runtime-user"], host, password: "<password>" }).map(
    (s) => `${s};`,
  ),
];
console.log(lines.join("\n"));
