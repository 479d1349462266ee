import { randomUUID } from "node:crypto";
import mysql from "mysql2/promise";
import { afterEach, describe, expect, inject, it } from "vitest";
import { databaseName, dropDatabase, migrateDatabase } from "../migrate.ts";
import { migrations } from "../migrations/index.ts";
import { legacyInstall } from "../testing/legacy-install.ts";
import { testDatabaseName } from "../testing/test-ledger.ts";
import { asServerAdmin } from "../testing/test-users.ts";
import {
  type Account,
  type MigratorGrantOptions,
  migrationsTableRevoke,
  migratorGrants,
  patternGrantRevoke,
  runtimeGrants,
} from "./privileges.ts";

// The grants `pnpm db:grants` prints, run as printed. (Every other integration test already runs
// the product as the runtime user: `testing/test-ledger.ts`.)
const cleanups: Array<() => Promise<void>> = [];
const migrationNames = migrations.map((migration) => migration.name);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Grants = (database: string, account: Account) => string[];

/** A user made by `grants(database, account)`, and the database's URL as that user. */
async function userFor(url: string, grants: Grants, tag: string): Promise<string> {
  const account = { user: `rt_${databaseName(url).slice(5, 15)}_${tag}`, host: "%", password: randomUUID() };
  await asServerAdmin(url, grants(databaseName(url), account));
  cleanups.push(() => asServerAdmin(url, [`DROP USER IF EXISTS '${account.user}'@'%'`]));
  const as = new URL(url);
  as.username = account.user;
  as.password = account.password;
  return as.toString();
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

async function attempt(url: string, sql: string): Promise<unknown> {
  const connection = await mysql.createConnection({ uri: url });
  try {
    return await connection.query(sql).then(
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

  it("the migrator creates the database and the schema with its grants alone; the runtime user can read and append, not edit the journal or the schema", async () => {
    const url = newUrl();
    const asMigrator = await userFor(url, migratorGrants, "m");
    expect((await migrateDatabase(asMigrator)).applied).toEqual(migrationNames);
    const asRuntime = await userFor(url, runtimeGrants, "r");
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
    await asServerAdmin(url, [migrationsTableRevoke(databaseName(url), runtime)]);
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
    await asServerAdmin(url, [
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
