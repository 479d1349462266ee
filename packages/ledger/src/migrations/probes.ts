import type { Connection, RowDataPacket } from "mysql2/promise";

/**
 * Whether a migration step has already taken effect, read from `information_schema` (the same on
 * MySQL 8.4, MariaDB 10.11 and TiDB) in the database the connection uses. A step with a probe runs
 * only while its probe says no, and must make it say yes: so a migration that failed at any
 * statement is run again from the top and skips what already happened. (The common dialect has no
 * `ADD COLUMN IF NOT EXISTS` or `CREATE INDEX IF NOT EXISTS`: MySQL lacks both.)
 */
export type Probe = (connection: Connection) => Promise<boolean>;

async function one(
  connection: Connection,
  sql: string,
  values: unknown[],
): Promise<RowDataPacket | undefined> {
  const [rows] = await connection.query<RowDataPacket[]>(sql, values);
  return rows[0];
}

/** The column exists (with this `COLUMN_TYPE`, e.g. `varbinary(512)`, and nullability, when given). */
export const hasColumn =
  (table: string, column: string, type?: string, nullable?: boolean): Probe =>
  async (connection) => {
    const row = await one(
      connection,
      "SELECT COLUMN_TYPE AS type, IS_NULLABLE AS nullable FROM information_schema.COLUMNS" +
        " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?",
      [table, column],
    );
    if (!row) return false;
    if (type !== undefined && columnType(String(row.type)) !== type) return false;
    return nullable === undefined || (row.nullable === "YES") === nullable;
  };

/** Every one of the columns has its type (`hasColumn`): one ALTER of a table changes them together. */
export const hasColumns =
  (table: string, columns: Array<[column: string, type: string]>): Probe =>
  async (connection) => {
    for (const [column, type] of columns)
      if (!(await hasColumn(table, column, type)(connection))) return false;
    return true;
  };

/** The index exists, over exactly these columns in this order (when given). */
export const hasIndex =
  (table: string, index: string, columns?: string[]): Probe =>
  async (connection) => {
    const [rows] = await connection.query<RowDataPacket[]>(
      "SELECT COLUMN_NAME AS name FROM information_schema.STATISTICS" +
        " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? ORDER BY SEQ_IN_INDEX",
      [table, index],
    );
    if (rows.length === 0) return false;
    return columns === undefined || rows.map((row) => String(row.name)).join(",") === columns.join(",");
  };

export const not =
  (probe: Probe): Probe =>
  async (connection) =>
    !(await probe(connection));

/** No trigger of this name on the database (TiDB has no triggers at all: always true there). */
export const noTrigger =
  (name: string): Probe =>
  async (connection) =>
    !(await one(
      connection,
      "SELECT 1 AS found FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?",
      [name],
    ));

/** The table's default collation (what its new columns get). */
export const tableCollation =
  (table: string, collation: string): Probe =>
  async (connection) => {
    const row = await one(
      connection,
      "SELECT TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
      [table],
    );
    return row !== undefined && row.collation === collation;
  };

/** Every text column of the table compares by this collation (VARBINARY ones have none). */
export const textCollation =
  (table: string, collation: string): Probe =>
  async (connection) =>
    !(await one(
      connection,
      "SELECT 1 AS found FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?" +
        " AND COLLATION_NAME IS NOT NULL AND COLLATION_NAME <> ?",
      [table, collation],
    ));

/** A query of one row and one column `n` says 0: nothing is left for the step to do. */
export const noneLeft =
  (sql: string): Probe =>
  async (connection) =>
    Number((await one(connection, sql, []))?.n ?? 0) === 0;

/** Every probe says yes. */
export const all =
  (...probes: Probe[]): Probe =>
  async (connection) => {
    for (const probe of probes) if (!(await probe(connection))) return false;
    return true;
  };

/** Some probe says yes. */
export const any =
  (...probes: Probe[]): Probe =>
  async (connection) => {
    for (const probe of probes) if (await probe(connection)) return true;
    return false;
  };

/** A COLUMN_TYPE as MySQL 8 writes it: MariaDB still shows integer display widths (`bigint(20) unsigned`). */
export function columnType(type: string): string {
  return type.toLowerCase().replace(/^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/, "$1");
}
