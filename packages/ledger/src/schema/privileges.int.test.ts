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
import { migratorGrants } from "./privileges.ts";

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

/** Runs `statements` as the DBA, one by one. */
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

/** A user made by `grants(database, account)`, run by the DBA, and the database's URL as that user. */
async function userFor(url: string, grants: typeof migratorGrants, prefix: string): Promise<string> {
  const account = {
    user: `${prefix}${databaseName(url).slice("test_".length)}`,
    host: "%",
    password: randomUUID(),
  };
  await asDba(grants(databaseName(url), account));
  return as(url, account.user, account.password);
}

/**
 * `pnpm db:grants` for `url`'s database as the tool prints it, each placeholder password filled in:
 * the migrator's part (run before migrating) and the runtime's (after).
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
      expect.stringMatching(/^GRANT SELECT, INSERT, .* ON `test_\w+`\.\* TO 'mg_\w+'@'%'$/),
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
    expect(await rows(url, "SELECT amount, balance_after FROM journal_entries")).toEqual([[5, 5]]);
  });

  it("the migrator converges an install of the earlier migrator, its triggers included, without SUPER", async () => {
    const url = newUrl();
    await legacyInstall(url, "0012");
    const asMigrator = await userFor(url, migratorGrants, migratorUserPrefix);
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
