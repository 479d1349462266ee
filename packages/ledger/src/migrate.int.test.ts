import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { createDatabase } from "./db.ts";
import { databaseName, dropDatabase, migrateDatabase } from "./migrate.ts";
import { testDatabaseName } from "./testing/test-ledger.ts";

const committedMigrations = JSON.parse(
  readFileSync(new URL("../drizzle/meta/_journal.json", import.meta.url), "utf8"),
) as { entries: unknown[] };

describe("migrateDatabase", () => {
  it("creates a missing database, applies every migration, and is safe to run again and concurrently", async () => {
    const url = new URL(testDatabaseName(), inject("mysqlServerUrl")).toString();
    try {
      await Promise.all([migrateDatabase(url), migrateDatabase(url)]);
      await migrateDatabase(url);
      const { db, close } = createDatabase({ url, poolSize: 1 });
      const [tables] = (await db.execute(
        sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${databaseName(url)} `,
      )) as unknown as [Array<{ name: string }>];
      const [applied] = (await db.execute(
        sql`SELECT COUNT(*) AS n FROM __drizzle_migrations`,
      )) as unknown as [Array<{ n: string | number }>];
      await close();
      expect(tables.map((table) => table.name).sort()).toEqual([
        "__drizzle_migrations",
        "bets",
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
      ]);
      // Each committed migration applied once, however many runs raced.
      expect(Number(applied[0]?.n)).toBe(committedMigrations.entries.length);
    } finally {
      await dropDatabase(url);
    }
  });
});
