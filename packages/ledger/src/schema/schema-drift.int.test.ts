import { afterAll, describe, expect, inject, it } from "vitest";
import { dropDatabase, migrateDatabase } from "../migrate.ts";
import { schemaSnapshot } from "../testing/schema-snapshot.ts";
import { schemaTables as tables } from "../testing/schema-tables.ts";
import { testDatabaseName } from "../testing/test-ledger.ts";

// The drizzle schema is what the code reads and writes; the baseline (migrations/0001_baseline.sql)
// is what the migrator makes. They are written apart, so this holds them to each other.
const url = new URL(testDatabaseName(), inject("mysqlServerUrl")).toString();
afterAll(() => dropDatabase(url));

describe("the migrated schema and the drizzle schema", () => {
  it("have the same tables, columns (type and nullability) and indexes", async () => {
    await migrateDatabase(url);
    const made = await schemaSnapshot(url);
    const columnsMade = made.columns.map((line) => line.split(" default=")[0]);
    const columnsDeclared = tables
      .flatMap((table) =>
        table.columns.map(
          (column) =>
            `${table.name}.${column.name} ${column.getSQLType().toLowerCase()} ${column.notNull ? "not null" : "null"}`,
        ),
      )
      .sort();
    expect(columnsMade).toEqual(columnsDeclared);
    const indexesMade = made.indexes
      .map((line) => line.split(" ").slice(0, 2).join(" "))
      .filter((line) => !line.endsWith(" PRIMARY"));
    const indexesDeclared = tables
      .flatMap((table) => [
        ...table.indexes.map((index) => `${table.name} ${index.config.name}`),
        ...table.uniqueConstraints.map((unique) => `${table.name} ${unique.name}`),
        ...table.columns
          .filter((column) => column.isUnique)
          .map((column) => `${table.name} ${column.uniqueName}`),
      ])
      .sort();
    expect(indexesMade).toEqual(indexesDeclared);
    const checksDeclared = tables
      .flatMap((table) => table.checks.map((check) => `${table.name} ${check.name}`))
      .sort();
    expect(made.checks).toEqual(checksDeclared);
  });
});
