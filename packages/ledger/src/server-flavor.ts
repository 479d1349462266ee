import type { Connection, RowDataPacket } from "mysql2/promise";

/** The servers the ledger runs on (docs/databases.md). */
export type ServerFlavor = "mysql" | "mariadb" | "tidb";

/** A server's variables by name, as `SHOW VARIABLES` gives them; a variable the server lacks is absent. */
export type ServerVariables = Readonly<Record<string, string>>;

/**
 * What tells the servers apart. TiDB has `tidb_txn_mode` since v3.0 (and `tidb_enable_check_constraint`
 * since v7.2); MySQL and MariaDB have no `tidb_` variable.
 */
export const flavorVariables = [
  "version",
  "version_comment",
  "tidb_txn_mode",
  "tidb_enable_check_constraint",
];

/**
 * `SHOW SESSION VARIABLES` of these names: one statement every server accepts, which leaves out a
 * variable the server lacks where `SELECT @@name` would fail whole (MariaDB 10.11 has `tx_isolation`
 * only, MySQL 8.4 `transaction_isolation` only). A variable without a session value shows its global one.
 */
export function showVariables(names: readonly string[]): string {
  return `SHOW SESSION VARIABLES WHERE Variable_name IN (${names.map((name) => `'${name}'`).join(", ")})`;
}

/** The rows of `showVariables` as a record. */
export function variablesOf(rows: unknown): ServerVariables {
  const variables: Record<string, string> = {};
  for (const row of rows as Array<{ Variable_name?: unknown; Value?: unknown }>) {
    if (typeof row.Variable_name === "string")
      variables[row.Variable_name.toLowerCase()] = String(row.Value ?? "");
  }
  return variables;
}

/** Reads `names` from the server `connection` talks to. */
export async function readVariables(
  connection: Pick<Connection, "query">,
  names: readonly string[],
): Promise<ServerVariables> {
  const [rows] = await connection.query<RowDataPacket[]>(showVariables(names));
  return variablesOf(rows);
}

/**
 * Which server answered: TiDB by a `tidb_` variable, never by its version string alone. TiDB's
 * `server-version` setting rewrites VERSION() and `version` (set, say, to "8.0.11" for a vulnerability
 * scanner: https://docs.pingcap.com/tidb/stable/high-reliability-faq), and a check keyed on it would
 * take that TiDB for MySQL and skip what only TiDB needs. MariaDB by its version or version comment.
 */
export function flavorOf(variables: ServerVariables): ServerFlavor {
  const version = `${variables.version ?? ""} ${variables.version_comment ?? ""}`;
  if (Object.keys(variables).some((name) => name.startsWith("tidb_")) || /tidb/i.test(version)) return "tidb";
  if (/mariadb/i.test(version)) return "mariadb";
  return "mysql";
}
