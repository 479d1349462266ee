import mysql from "mysql2/promise";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dropDatabase, migrateDatabase } from "../migrate.ts";
import { schemaSnapshot } from "../testing/schema-snapshot.ts";
import { testDatabaseName } from "../testing/test-ledger.ts";

const urls: string[] = [];
const newUrl = () => {
  const url = new URL(testDatabaseName(), inject("mysqlServerUrl")).toString();
  urls.push(url);
  return url;
};
afterAll(async () => {
  for (const url of urls) await dropDatabase(url);
});

async function run(url: string, statements: string[]): Promise<void> {
  const connection = await mysql.createConnection({ uri: url });
  try {
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end();
  }
}

/**
 * Each migration that changes indexes: the lines of the schema snapshot it is about (`made`) and
 * what a clean install has of them (`expected`: table, index, non-unique, columns), and how to turn
 * a clean install back into one migrated before it (`before`).
 */
const cases = [
  {
    migration: "0003_retention_indexes",
    made: /^(operator_actions operator_actions_created|refused_closes refused_closes_resolved) /,
    expected: [
      "operator_actions operator_actions_created 1 created_at",
      "refused_closes refused_closes_resolved 1 resolved_at",
    ],
    // Before issue 34: the baseline of then, without the two indexes.
    before: [
      "DROP INDEX operator_actions_created ON operator_actions",
      "DROP INDEX refused_closes_resolved ON refused_closes",
    ],
  },
  {
    migration: "0004_outbox_dead_index",
    made: /^outbox outbox_applied/,
    expected: ["outbox outbox_applied_dead 1 applied_at,dead_at,published_at,created_at"],
    // Before issue 39: the unapplied rows' index not led by dead_at, so it read the dead rows too.
    before: [
      "CREATE INDEX outbox_applied ON outbox (applied_at, published_at, created_at)",
      "DROP INDEX outbox_applied_dead ON outbox",
    ],
  },
];

describe("the migrations that change indexes", () => {
  for (const { migration, made, expected, before } of cases)
    it(`${migration} brings an install made before it to a clean install's indexes, and a run failed between its statements is run again to a clean install's schema`, async () => {
      const clean = newUrl();
      expect((await migrateDatabase(clean)).applied).toContain(migration);
      const cleanSchema = await schemaSnapshot(clean);
      expect(cleanSchema.indexes.filter((line) => made.test(line))).toEqual(expected);

      const older = newUrl();
      await migrateDatabase(older);
      await run(older, [...before, `DELETE FROM schema_migrations WHERE name = '${migration}'`]);
      await expect(
        migrateDatabase(older, {
          beforeStep: async (name, index) => {
            if (name === migration && index === 1) throw new Error("injected failure");
          },
        }),
      ).rejects.toThrow(/injected failure/);
      // The first step took effect, the migration is not recorded: the rerun skips it (its probe) and finishes.
      expect((await migrateDatabase(older)).applied).toEqual([migration]);
      expect(await schemaSnapshot(older)).toEqual(cleanSchema);
    });
});
