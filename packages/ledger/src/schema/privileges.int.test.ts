import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import mysql from "mysql2/promise";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseName, dropDatabase, migrateDatabase } from "../migrate.ts";
import { migrations } from "../migrations/index.ts";
import { inheritedEnvWithoutRedis } from "../testing/env.ts";
import { testsOwn } from "../testing/general-log.ts";
import { legacyInstall } from "../testing/legacy-install.ts";
import { runCli } from "../testing/run-cli.ts";
import { testDatabaseName } from "../testing/test-ledger.ts";
import {
  administratorUserPrefix,
  asServerAdmin,
  migratorUserPrefix,
  runtimeUserPrefix,
} from "../testing/test-users.ts";
import {
  type Account,
  type MigratorGrantOptions,
  migrationsTableRevoke,
  migratorGrants,
  patternGrantRevoke,
  runtimeGrants,
} from "./privileges.ts";

// The grants `pnpm db:grants` prints, run as printed, by a DBA of the test's own (an operator's admin
// user: RDS's master user, TiDB's root), so the portability gate sees them too. (Every other
// integration test already runs the product as the runtime user: `testing/test-ledger.ts`.)
const cleanups: Array<() => Promise<void>> = [];
const migrationNames = migrations.map((migration) => migration.name);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const server = () => inject("mysqlServerUrl");
let dba = "";
beforeAll(async () => {
  const account = `${administratorUserPrefix}${Math.floor(Date.now() / 1000)}_${randomUUID().slice(0, 8)}`;
  const password = randomUUID();
  await asServerAdmin(server(), [
    `CREATE USER '${account}'@'%' IDENTIFIED BY '${password}'`,
    `GRANT ALL PRIVILEGES ON *.* TO '${account}'@'%' WITH GRANT OPTION`,
  ]);
  const url = new URL(server());
  url.username = account;
  url.password = password;
  dba = url.toString();
});
afterAll(() => asServerAdmin(server(), [`DROP USER IF EXISTS '${new URL(dba).username}'@'%'`]));

/** Runs what `pnpm db:grants` prints (`privileges.ts`) as the DBA, one statement at a time. */
async function asDba(statements: string[]): Promise<void> {
  const connection = await mysql.createConnection({ uri: dba });
  try {
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end();
  }
}

/** `url` as `user`, whose account the DBA made; dropped after the test. */
function as(url: string, user: string, password: string): string {
  cleanups.push(() => asServerAdmin(url, [`DROP USER IF EXISTS '${user}'@'%'`]));
  const other = new URL(url);
  other.username = user;
  other.password = password;
  return other.toString();
}

type Grants = (database: string, account: Account) => string[];

/**
 * A user made by `grants(database, account)`, run by the DBA, and the database's URL as that user:
 * named `mg_…` (a migrator) or, with `runtimeGrants`, `rt_…`.
 */
async function userFor(url: string, grants: Grants, tag: string): Promise<string> {
  const prefix = grants === runtimeGrants ? runtimeUserPrefix : migratorUserPrefix;
  const account = {
    user: `${prefix}${databaseName(url).slice(5, 15)}_${tag}`,
    host: "%",
    password: randomUUID(),
  };
  await asDba(grants(databaseName(url), account));
  return as(url, account.user, account.password);
}

/**
 * `pnpm db:grants` for `url`'s database as the tool prints it, each placeholder password filled in:
 * the migrator's part (run before migrating) and the runtime's (after); lines it prints as comments
 * (statements to run once, on an older install) left out.
 */
async function printedGrants(url: string, users: { migrator: string; runtime: string }, password: string) {
  const run = await runCli(
    process.execPath,
    ["--import", "tsx", "packages/ledger/src/cli/grants.cli.ts"].concat([
      "--migrator-user",
      users.migrator,
      "--runtime-user",
      users.runtime,
    ]),
    {
      cwd: fileURLToPath(new URL("../../../../", import.meta.url)),
      env: { ...inheritedEnvWithoutRedis(), DATABASE_URL: url },
    },
  );
  expect(run).toMatchObject({ code: 0, stderr: "" });
  const statements = (part: string) =>
    part
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("--"))
      .map((line) => line.replace(/;$/, "").replaceAll("<password>", password));
  const [, migrator = "", runtime = ""] = run.stdout.split(/^-- \d\. .*$/m);
  return { migrator: statements(migrator), runtime: statements(runtime) };
}

/** The migrator's grants as `pnpm db:grants` prints them with these options. */
const migratorWith =
  (options: MigratorGrantOptions): Grants =>
  (database, account) =>
    migratorGrants(database, account, options);

async function rows(url: string, sql: string): Promise<unknown[][]> {
  const connection = await mysql.createConnection({ uri: url, rowsAsArray: true });
  try {
    return (await connection.query(sql))[0] as unknown[][];
  } finally {
    await connection.end();
  }
}

/** A test's own statement as `url`'s user (`testsOwn`: not the product's): "done", or the error's number. */
async function attempt(url: string, sql: string): Promise<unknown> {
  const connection = await mysql.createConnection({ uri: url });
  try {
    return await connection.query(`${testsOwn}${sql}`).then(
      () => "done",
      (error: { errno?: number }) => error.errno,
    );
  } finally {
    await connection.end();
  }
}

describe("users and grants (no SUPER anywhere)", () => {
  const newUrl = () => {
    const url = new URL(testDatabaseName(), inject("mysqlServerUrl")).toString();
    cleanups.push(() => dropDatabase(url));
    return url;
  };

  it("as `pnpm db:grants` prints them, run by a DBA: the migrator creates the database and the schema with its grants alone; the runtime user can read and append, not edit the journal or the schema", async () => {
    const url = newUrl();
    const suffix = databaseName(url).slice("test_".length);
    const users = { migrator: `${migratorUserPrefix}${suffix}`, runtime: `${runtimeUserPrefix}${suffix}` };
    const password = randomUUID();
    const printed = await printedGrants(url, users, password);
    expect(printed.migrator).toEqual([
      expect.stringMatching(/^CREATE USER IF NOT EXISTS 'mg_\w+'@'%' IDENTIFIED BY '[\w-]+'$/),
      expect.stringMatching(/^GRANT SELECT, INSERT, .* ON `test\\_[\w\\]+`\.\* TO 'mg_\w+'@'%'$/),
    ]);
    await asDba(printed.migrator);
    const asMigrator = as(url, users.migrator, password);
    expect((await migrateDatabase(asMigrator)).applied).toEqual(migrationNames);
    await asDba(printed.runtime);
    const asRuntime = as(url, users.runtime, password);
    expect(await attempt(asRuntime, "INSERT INTO tenants (id, public_key, name) VALUES (1, 'k', 't')")).toBe(
      "done",
    );
    expect(
      await attempt(
        asRuntime,
        "INSERT INTO journal_entries (tenant_id, player_id, wallet_id, wallet_seq, currency, kind, amount, balance_after, operator_tx_id) VALUES (1, 1, 1, 1, 'EUR', 'ADJUSTMENT', 5, 5, 'op-1')",
      ),
    ).toBe("done");
    // 1142: command denied for the table; 1143: for the column. No edit of the journal, no DDL.
    expect(await attempt(asRuntime, "UPDATE journal_entries SET amount = 0")).toBe(1142);
    expect(await attempt(asRuntime, "DELETE FROM journal_entries")).toBe(1142);
    expect(await attempt(asRuntime, "ALTER TABLE wallets ADD COLUMN x int")).toBe(1142);
    expect(await attempt(asRuntime, "DROP TABLE outbox")).toBe(1142);
    expect(await attempt(asRuntime, "DELETE FROM wallets")).toBe(1142);
    // Only the migrator reads the migrations table: the runtime user is not given it, and the line
    // `pnpm db:grants` prints for an install granted before takes it back.
    expect(await attempt(asRuntime, "SELECT name FROM schema_migrations")).toBe(1142);
    const runtime = { user: new URL(asRuntime).username, host: "%" };
    await asServerAdmin(url, [
      `GRANT SELECT ON \`${databaseName(url)}\`.schema_migrations TO '${runtime.user}'@'%'`,
    ]);
    expect(await attempt(asRuntime, "SELECT name FROM schema_migrations")).toBe("done");
    await asDba([migrationsTableRevoke(databaseName(url), runtime)]);
    expect(await attempt(asRuntime, "SELECT name FROM schema_migrations")).toBe(1142);
    expect(await rows(url, "SELECT amount, balance_after FROM journal_entries")).toEqual([[5, 5]]);
  });

  it("the migrator's grant names its database alone: a database named like it, `_` read as any character, is out of its reach", async () => {
    // `test_<seconds>_<hex>_db` and its look-alike `test_<seconds>_<hex>Xdb` (named so that the
    // test setup drops both if this run crashes).
    const url = `${newUrl()}_db`;
    cleanups.push(() => dropDatabase(url));
    const name = databaseName(url);
    const lookalike = `${name.slice(0, -3)}Xdb`;
    await asServerAdmin(url, [
      `CREATE DATABASE \`${lookalike}\``,
      `CREATE TABLE \`${lookalike}\`.t (c int)`,
      `INSERT INTO \`${lookalike}\`.t VALUES (1)`,
    ]);
    cleanups.push(() => asServerAdmin(url, [`DROP DATABASE IF EXISTS \`${lookalike}\``]));
    const asMigrator = await userFor(url, migratorGrants, "m");
    expect((await migrateDatabase(asMigrator)).applied).toEqual(migrationNames);
    // 1142: command denied for the table. Its own database it made and migrated; the other, not a row.
    expect(await attempt(asMigrator, `SELECT c FROM \`${lookalike}\`.t`)).toBe(1142);
    expect(await attempt(asMigrator, `DROP TABLE \`${lookalike}\`.t`)).toBe(1142);
    expect(await rows(url.replace(name, lookalike), "SELECT c FROM t")).toEqual([[1]]);
    // What the grant was before: the same privileges on the name unescaped reach the look-alike.
    const asPattern = await userFor(
      url,
      (database, account) =>
        migratorGrants(database, account).map((statement) =>
          statement.replace(/ON `[^`]+`\.\*/, `ON \`${database}\`.*`),
        ),
      "p",
    );
    expect(await attempt(asPattern, `SELECT c FROM \`${lookalike}\`.t`)).toBe("done");
    // Such an install, granted again as printed now and its old grant revoked (the line `pnpm db:grants`
    // prints for it): the look-alike is out of reach, its own database still the migrator's.
    const before = { user: new URL(asPattern).username, host: "%" };
    await asDba([
      ...migratorGrants(name, { ...before, password: "unused: the user exists" }),
      patternGrantRevoke(name, before) ?? "",
    ]);
    expect(await attempt(asPattern, `SELECT c FROM \`${lookalike}\`.t`)).toBe(1142);
    expect((await migrateDatabase(asPattern)).applied).toEqual([]);
  });

  it("the migrator of a fresh install is not given TRIGGER: an install of the earlier migrator is refused at DROP TRIGGER, saying to print the grants with --legacy-install", async () => {
    const url = newUrl();
    await legacyInstall(url, "0012");
    const asMigrator = await userFor(url, migratorGrants, "m");
    await expect(migrateDatabase(asMigrator)).rejects.toThrow(
      /^DROP TRIGGER journal_entries_no_update was refused \(TRIGGER command denied .*\): this database still has the earlier migrator's triggers, and dropping them needs TRIGGER\. Run the migrator part of `pnpm db:grants --legacy-install`/,
    );
    expect(
      await rows(
        url,
        "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() ORDER BY TRIGGER_NAME",
      ),
    ).toEqual([["journal_entries_no_delete"], ["journal_entries_no_update"]]);
  });

  it("the migrator converges an install of the earlier migrator, its triggers included, with --legacy-install's grants and without SUPER", async () => {
    const url = newUrl();
    await legacyInstall(url, "0012");
    const asMigrator = await userFor(url, migratorWith({ legacyInstall: true }), "m");
    expect((await migrateDatabase(asMigrator)).applied).toEqual(migrationNames);
    expect(
      await rows(
        url,
        "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()",
      ),
    ).toEqual([]);
    expect(
      await rows(
        url,
        "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'journal_entries' AND COLUMN_NAME = 'wallet_seq'",
      ),
    ).toEqual([[1]]);
  });
});
