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

describe("migration 0003_retention_indexes", () => {
  it("gives an install made before it the retention indexes, and a run failed between its statements is run again to a clean install's schema", async () => {
    const clean = newUrl();
    expect((await migrateDatabase(clean)).applied).toContain("0003_retention_indexes");
    const made = await schemaSnapshot(clean);
    expect(
      made.indexes.filter((line) => / (operator_actions_created|refused_closes_resolved) /.test(line)),
    ).toEqual([
      "operator_actions operator_actions_created 1 created_at",
      "refused_closes refused_closes_resolved 1 resolved_at",
    ]);

    // An install migrated before issue 34: the baseline of then, without the two indexes.
    const older = newUrl();
    await migrateDatabase(older);
    await run(older, [
      "DROP INDEX operator_actions_created ON operator_actions",
      "DROP INDEX refused_closes_resolved ON refused_closes",
      "DELETE FROM schema_migrations WHERE name = '0003_retention_indexes'",
    ]);
    await expect(
      migrateDatabase(older, {
        beforeStep: async (migration, index) => {
          if (migration === "0003_retention_indexes" && index === 1) throw new Error("injected failure");
        },
      }),
    ).rejects.toThrow(/injected failure/);
    // The first index was made, the migration not recorded: the rerun skips it (its probe) and finishes.
    expect((await migrateDatabase(older)).applied).toEqual(["0003_retention_indexes"]);
    expect(await schemaSnapshot(older)).toEqual(made);
  });
});
