import { parseArgs } from "node:util";
import { databaseName } from "../migrate.ts";
import {
  migrationsTableRevoke,
  migratorGrants,
  patternGrantRevoke,
  runtimeGrants,
} from "../schema/privileges.ts";
import { cliEnv } from "./env.ts";

/**
 * `pnpm db:grants`: prints the SQL that makes the wallet's two database users, for a DBA to run as
 * the server's admin (RDS/Aurora's master user, Cloud SQL's root, TiDB's root): no SUPER, no global
 * privilege. The database is DATABASE_URL's; users and host from the options. Passwords are left
 * as placeholders: they never pass through this tool. `--legacy-install` adds TRIGGER to the
 * migrator's grant (a database the earlier migrator made, its triggers still there);
 * `--partial-revokes` spells the database as it is in the migrator's grant, for a MySQL server
 * whose `partial_revokes` is ON (docs/databases.md, "Users and grants").
 */
const { values } = parseArgs({
  options: {
    "runtime-user": { type: "string", default: "wallet_app" },
    "migrator-user": { type: "string", default: "wallet_migrate" },
    host: { type: "string", default: "%" },
    "legacy-install": { type: "boolean", default: false },
    "partial-revokes": { type: "boolean", default: false },
  },
});
const database = databaseName(cliEnv.DATABASE_URL);
const host = values.host;
const migrator = { user: values["migrator-user"], host, password: "<password>" };
const revoke = patternGrantRevoke(database, migrator);
const runtime = { user: values["runtime-user"], host, password: "<password>" };
const lines = [
  `-- The wallet's database users for \`${database}\` (docs/databases.md, "Users and grants").`,
  "-- Replace each <password> first. Run as the server's admin user; nothing here needs SUPER.",
  "",
  "-- 1. The migrator (MIGRATE_DATABASE_URL): before the first `pnpm db:migrate`.",
  values["partial-revokes"]
    ? "--    The database is named as it is: on MySQL with partial_revokes ON, names in grants are literal."
    : "--    `_` and `%` escaped: in a database-level grant they are wildcards (on MySQL with partial_revokes ON, print with --partial-revokes).",
  values["legacy-install"]
    ? "--    With TRIGGER, to drop the triggers the earlier migrator made (0002_converge_legacy)."
    : "--    No TRIGGER: a database the earlier migrator made, its triggers still there, needs --legacy-install.",
  ...migratorGrants(database, migrator, {
    legacyInstall: values["legacy-install"],
    partialRevokes: values["partial-revokes"],
  }).map((s) => `${s};`),
  ...(revoke && !values["partial-revokes"]
    ? [
        "--    Once, if the migrator was granted before the name was escaped, the old grant (a pattern) goes:",
        `--    ${revoke};`,
      ]
    : []),
  "",
  "-- 2. The runtime user (DATABASE_URL of the gateway, worker, operator API and their tools): after",
  "--    `pnpm db:migrate` (a table's grant needs the table), and again after a migration that adds one.",
  "--    The journal is append-only: SELECT and INSERT, no UPDATE or DELETE.",
  ...runtimeGrants(database, runtime).map((s) => `${s};`),
  "--    Once, on an install granted before: the migrations table is the migrator's alone.",
  `--    ${migrationsTableRevoke(database, runtime)};`,
];
console.log(lines.join("\n"));
