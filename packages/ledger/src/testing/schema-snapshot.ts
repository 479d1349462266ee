import mysql, { type RowDataPacket } from "mysql2/promise";
import { columnType } from "../migrations/probes.ts";

/**
 * TEST HELPER: a database's schema as `information_schema` shows it (the same views on MySQL 8.4,
 * MariaDB and TiDB), in a form two databases can be compared by: tables and their default collation,
 * columns (type, nullability, default, collation; not their position), indexes, CHECK constraints;
 * each list sorted here (information_schema's own ORDER BY follows its case-insensitive collation).
 */
export interface SchemaSnapshot {
  tables: string[];
  columns: string[];
  indexes: string[];
  checks: string[];
}

export async function schemaSnapshot(url: string): Promise<SchemaSnapshot> {
  const connection = await mysql.createConnection({ uri: url });
  const rows = async (sql: string) =>
    (await connection.query<RowDataPacket[]>(sql))[0]
      .map((row) => Object.values(row).map(String).join(" "))
      .sort();
  try {
    return {
      tables: await rows(
        "SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'schema_migrations' ORDER BY TABLE_NAME",
      ),
      columns: (
        await connection.query<RowDataPacket[]>(
          "SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS type, IS_NULLABLE AS nullable," +
            " COLUMN_DEFAULT AS dflt, COLLATION_NAME AS collation, EXTRA AS extra FROM information_schema.COLUMNS" +
            " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'schema_migrations' ORDER BY TABLE_NAME, COLUMN_NAME",
        )
      )[0]
        .map(
          (row) =>
            `${row.t}.${row.c} ${columnType(String(row.type))} ${row.nullable === "YES" ? "null" : "not null"} default=${String(row.dflt)} ${String(row.collation)} ${String(row.extra)}`,
        )
        .sort(),
      indexes: await rows(
        "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS" +
          " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'schema_migrations' GROUP BY TABLE_NAME, INDEX_NAME, NON_UNIQUE ORDER BY TABLE_NAME, INDEX_NAME",
      ),
      checks: await rows(
        "SELECT TABLE_NAME, CONSTRAINT_NAME FROM information_schema.TABLE_CONSTRAINTS" +
          " WHERE TABLE_SCHEMA = DATABASE() AND CONSTRAINT_TYPE = 'CHECK' ORDER BY TABLE_NAME, CONSTRAINT_NAME",
      ),
    };
  } finally {
    await connection.end();
  }
}
