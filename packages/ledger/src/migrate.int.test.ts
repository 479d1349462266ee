import { randomUUID } from "node:crypto";
import mysql, { type RowDataPacket } from "mysql2/promise";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDatabase } from "./db.ts";
import { databaseName, dropDatabase, MigrationRefused, migrateDatabase } from "./migrate.ts";
import { migrations } from "./migrations/index.ts";
import { type MigratorGrantOptions, migratorGrants } from "./schema/privileges.ts";
import { legacyInstall } from "./testing/legacy-install.ts";
import { schemaSnapshot } from "./testing/schema-snapshot.ts";
import { testDatabaseName } from "./testing/test-ledger.ts";
import { asServerAdmin, migratorUserPrefix } from "./testing/test-users.ts";
import { verifyLedger } from "./verify.ts";

const urls: string[] = [];
const newUrl = () => {
  const url = new URL(testDatabaseName(), inject("mysqlServerUrl")).toString();
  urls.push(url);
  return url;
};
afterEach(async () => {
  for (const url of urls.splice(0)) {
    await dropDatabase(url);
    const migrator = migrators.get(url);
    if (migrator) await asServerAdmin(url, [`DROP USER IF EXISTS '${new URL(migrator).username}'@'%'`]);
    migrators.delete(url);
  }
});

/**
 * `url` as the migrator of its database, made with the grants `pnpm db:grants` prints: migrations run
 * as in production (and the portability gate sees each statement, the convergence's included). Its
 * reads back, and the earlier migrator's install, stay root's.
 */
const migrators = new Map<string, string>();
async function asMigrator(url: string, options: MigratorGrantOptions = {}): Promise<string> {
  const known = migrators.get(url);
  if (known) return known;
  const account = {
    user: `${migratorUserPrefix}${databaseName(url).slice("test_".length)}`,
    host: "%",
    password: randomUUID(),
  };
  await asServerAdmin(url, migratorGrants(databaseName(url), account, options));
  const migrator = new URL(url);
  migrator.username = account.user;
  migrator.password = account.password;
  migrators.set(url, migrator.toString());
  return migrator.toString();
}

async function query(url: string, sql: string, values: unknown[] = []): Promise<RowDataPacket[]> {
  const connection = await mysql.createConnection({ uri: url });
  try {
    return (await connection.query<RowDataPacket[]>(sql, values))[0];
  } finally {
    await connection.end();
  }
}
const onServer = (url: string, sql: string) => {
  const server = new URL(url);
  server.pathname = "/";
  return query(server.toString(), sql);
};

/** The schema a clean install makes, to compare every other path with. */
let clean: Awaited<ReturnType<typeof schemaSnapshot>> | undefined;
async function cleanSchema() {
  if (!clean) {
    const url = newUrl();
    await migrateDatabase(await asMigrator(url));
    clean = await schemaSnapshot(url);
  }
  return clean;
}

/** A `beforeStep` hook that fails the `at`-th statement (0-based) a run is about to send of `only` (or any). */
function failAt(at: number, only?: string) {
  let sent = 0;
  return async (migration: string, index: number) => {
    if (only !== undefined && migration !== only) return;
    if (sent++ === at) throw new Error(`injected failure before ${migration} step ${index + 1}`);
  };
}

/**
 * Runs the migrator, each run failed by `hook(run)`, until a run gets through: a failure between any
 * two statements, each followed by a rerun. Returns how many runs failed.
 */
async function failEveryStatementThenFinish(
  url: string,
  hook: (run: number) => ReturnType<typeof failAt>,
): Promise<number> {
  for (let run = 0; ; run += 1) {
    try {
      await migrateDatabase(await asMigrator(url), { beforeStep: hook(run) });
      return run;
    } catch (error) {
      expect(String(error)).toMatch(/injected failure before/);
    }
  }
}

describe("migrateDatabase", () => {
  it("a fresh install applies the baseline once, whoever runs it and however often; the database is made exact", async () => {
    const url = newUrl();
    const migrator = await asMigrator(url);
    const runs = await Promise.all([migrateDatabase(migrator), migrateDatabase(migrator)]);
    // Two migrators started together take turns: one applies everything, the other finds it done.
    expect(runs.map((run) => run.applied).sort((a, b) => b.length - a.length)).toEqual([
      migrations.map((migration) => migration.name),
      [],
    ]);
    expect((await migrateDatabase(await asMigrator(url))).applied).toEqual([]);
    const recorded = await query(url, "SELECT name FROM schema_migrations ORDER BY name");
    expect(recorded.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
    const schema = await schemaSnapshot(url);
    expect(schema.tables).toEqual(
      [
        "bets",
        "close_pieces",
        "free_bet_grants",
        "game_sessions",
        "idempotency_records",
        "journal_entries",
        "loyalty_awards",
        "loyalty_balances",
        "operator_actions",
        "operator_api_tokens",
        "outbox",
        "players",
        "refused_closes",
        "rg_daily",
        "round_closes",
        "round_reconciliations",
        "round_reports",
        "rounds",
        "side_effect_failures",
        "side_effect_receipts",
        "tenants",
        "tournament_scores",
        "tournaments",
        "user_tokens",
        "wallets",
        "write_checks",
      ]
        .map((table) => `${table} utf8mb4_bin`)
        .sort(),
    );
    // No column relies on a collation of the server's or the database's choosing: text is utf8mb4_bin, ids bytes.
    expect(schema.columns.filter((column) => / utf8mb4_(?!bin )\w+ /.test(column))).toEqual([]);
    const [database] = await onServer(
      url,
      `SELECT DEFAULT_COLLATION_NAME AS c FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${databaseName(url)}'`,
    );
    expect(database?.c).toBe("utf8mb4_bin");
  });

  it("a database a DBA made with another default collation is given the exact one, and its tables are exact", async () => {
    const url = newUrl();
    await onServer(
      url,
      `CREATE DATABASE \`${databaseName(url)}\` CHARACTER SET latin1 COLLATE latin1_swedish_ci`,
    );
    await migrateDatabase(await asMigrator(url));
    const [database] = await onServer(
      url,
      `SELECT DEFAULT_COLLATION_NAME AS c FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${databaseName(url)}'`,
    );
    expect(database?.c).toBe("utf8mb4_bin");
    expect(await schemaSnapshot(url)).toEqual(await cleanSchema());
  });

  it("a second migrator that cannot get the lock stops with a clear message and changes nothing", async () => {
    const url = newUrl();
    const name = databaseName(url);
    const server = new URL(url);
    server.pathname = "/";
    const holder = await mysql.createConnection({ uri: server.toString() });
    try {
      await holder.query("SELECT GET_LOCK(?, 1)", [`wallet_migrate_${name}`]);
      const refused = await migrateDatabase(await asMigrator(url), { lockWaitSeconds: 1 }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(MigrationRefused);
      expect(String(refused)).toContain(
        `another migrator of ${name} has held its lock (wallet_migrate_${name}) for 1 s: run this again once it has finished; nothing was changed`,
      );
      // It stopped before making the database.
      expect(
        await onServer(
          url,
          `SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${name}'`,
        ),
      ).toEqual([]);
    } finally {
      await holder.end();
    }
    expect((await migrateDatabase(await asMigrator(url), { lockWaitSeconds: 1 })).applied).toHaveLength(
      migrations.length,
    );
  });

  it("a fresh install failed before any of its statements is run again to the clean schema", async () => {
    const url = newUrl();
    // Every baseline statement re-runs (CREATE TABLE IF NOT EXISTS), so run r fails before statement r.
    const runs = await failEveryStatementThenFinish(url, (run) => failAt(run));
    expect(runs).toBe(migrations[0]?.steps.length);
    expect(await schemaSnapshot(url)).toEqual(await cleanSchema());
  });
});

/** What an install of the earlier migrator holds, written with its own columns. */
async function seedLegacy(url: string): Promise<void> {
  const statements = [
    "INSERT INTO tenants (id, public_key, name) VALUES (1, 'pk-1', 'one')",
    // Two players whose ids differ only by a trailing space and by case: two ids, on every server.
    "INSERT INTO players (id, tenant_id, user_id, username, currency, maxbet) VALUES (1, 1, 'Ann ', 'a', 'EUR', 1000), (2, 1, 'ann', 'b', 'EUR', 1000)",
    "INSERT INTO wallets (id, player_id, currency, balance) VALUES (1, 1, 'EUR', 700), (2, 2, 'EUR', 50)",
    // Lines of the two wallets interleaved, as bookings of two players are.
    "INSERT INTO journal_entries (id, tenant_id, player_id, wallet_id, currency, kind, amount, balance_after, operator_tx_id, provider_tx_id, round_id, game) VALUES" +
      " (1, 1, 1, 1, 'EUR', 'ADJUSTMENT', 1000, 1000, 'op-1', NULL, NULL, NULL)," +
      " (2, 1, 2, 2, 'EUR', 'ADJUSTMENT', 100, 100, 'op-2', NULL, NULL, NULL)," +
      " (3, 1, 1, 1, 'EUR', 'BET', -500, 500, 'op-3', 'tx-1', 'r-1', 'g')," +
      " (4, 1, 2, 2, 'EUR', 'BET', -50, 50, 'op-4', 'tx-2', 'r-2', 'g')," +
      " (5, 1, 1, 1, 'EUR', 'WIN', 200, 700, 'op-5', 'tx-3', 'r-1', 'g')",
  ];
  const connection = await mysql.createConnection({ uri: url });
  try {
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end();
  }
}

describe("an install of the earlier migrator converges on the baseline", () => {
  // 0008: where MySQL 8.4 stopped (0009's MariaDB-only collation) with tokens still in clear;
  // 0012: the earlier migrator's last migration, as every MariaDB install has it.
  for (const through of ["0008", "0012"]) {
    it(`from migration ${through}: same schema as a fresh install, data kept, journal numbered per wallet, ids exact`, async () => {
      const url = newUrl();
      await legacyInstall(url, through);
      // Its triggers are dropped with TRIGGER, which `pnpm db:grants --legacy-install` grants.
      await asMigrator(url, { legacyInstall: true });
      await seedLegacy(url);
      await query(
        url,
        "INSERT INTO user_tokens (token, tenant_id, player_id, expires_at) VALUES (?, 1, 1, NOW(3) + INTERVAL 1 DAY)",
        [
          through === "0008"
            ? "clear-token"
            : "5a2d3f1b9a7c4e6d8f0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f",
        ],
      );
      expect((await migrateDatabase(await asMigrator(url))).applied).toEqual(
        migrations.map((migration) => migration.name),
      );
      expect(await schemaSnapshot(url)).toEqual(await cleanSchema());

      const lines = await query(url, "SELECT id, wallet_id, wallet_seq FROM journal_entries ORDER BY id");
      expect(lines.map((row) => [Number(row.id), Number(row.wallet_id), Number(row.wallet_seq)])).toEqual([
        [1, 1, 1],
        [2, 2, 1],
        [3, 1, 2],
        [4, 2, 2],
        [5, 1, 3],
      ]);
      const { db, close } = createDatabase({ url, poolSize: 1 });
      try {
        expect(await verifyLedger(db)).toEqual({ wallets: 2, problems: [] });
      } finally {
        await close();
      }
      const players = await query(url, "SELECT HEX(user_id) AS id FROM players ORDER BY id");
      expect(players.map((row) => Buffer.from(String(row.id), "hex").toString())).toEqual(["Ann ", "ann"]);
      const [token] = await query(url, "SELECT token FROM user_tokens");
      expect(String(token?.token)).toMatch(/^[0-9a-f]{64}$/);
      if (through === "0008")
        expect(String(token?.token)).toBe((await query(url, "SELECT SHA2('clear-token', 256) AS h"))[0]?.h);
      // The journal is no longer guarded by triggers (grants do it: `schema/privileges.ts`).
      expect(
        await query(
          url,
          "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()",
        ),
      ).toEqual([]);
    });
  }

  it("a convergence failed between any two of its statements is run again to the same schema and data", async () => {
    const url = newUrl();
    await legacyInstall(url, "0008");
    await asMigrator(url, { legacyInstall: true });
    await seedLegacy(url);
    await query(
      url,
      "INSERT INTO user_tokens (token, tenant_id, player_id, expires_at) VALUES ('clear-token', 1, 1, NOW(3))",
    );
    // A convergence step runs once (its probe skips it after): each run sends the next one, then
    // fails before the one after it, until the last has run.
    const runs = await failEveryStatementThenFinish(url, () => failAt(1, "0002_converge_legacy"));
    expect(runs).toBeGreaterThan(20);
    expect(await schemaSnapshot(url)).toEqual(await cleanSchema());
    const lines = await query(url, "SELECT wallet_id, wallet_seq FROM journal_entries ORDER BY id");
    expect(lines.map((row) => `${row.wallet_id}:${row.wallet_seq}`)).toEqual([
      "1:1",
      "2:1",
      "1:2",
      "2:2",
      "1:3",
    ]);
    const [token] = await query(
      url,
      "SELECT token = SHA2('clear-token', 256) AS hashed_once FROM user_tokens",
    );
    expect(Number(token?.hashed_once)).toBe(1);
  });
});
