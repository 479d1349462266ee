import type { Connection, RowDataPacket } from "mysql2/promise";

/** The servers the ledger runs on (docs/databases.md). */
export type ServerFlavor = "mysql" | "mariadb" | "tidb";

/** Which server a connection talks to, from its VERSION(): `…-MariaDB…`, `…-TiDB-…`, else MySQL. */
export async function serverFlavor(connection: Pick<Connection, "query">): Promise<ServerFlavor> {
  const [rows] = await connection.query<RowDataPacket[]>("SELECT VERSION() AS version");
  const version = String(rows[0]?.version ?? "");
  if (/tidb/i.test(version)) return "tidb";
  if (/mariadb/i.test(version)) return "mariadb";
  return "mysql";
}
