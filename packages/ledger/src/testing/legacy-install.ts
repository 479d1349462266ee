import { readdirSync, readFileSync } from "node:fs";
import mysql from "mysql2/promise";

const folder = new URL("./legacy-migrations/", import.meta.url);

/**
 * TEST FIXTURE: a database as the earlier (drizzle) migrator left it, its SQL files applied in order
 * up to and including `through` (all of them by default): what `migrations/converge.ts` must bring
 * to the baseline. The files are the ones that migrator shipped, MariaDB-only collation included.
 */
export async function legacyInstall(url: string, through = "0012"): Promise<void> {
  const files = readdirSync(folder)
    .filter((file) => file.endsWith(".sql") && file.slice(0, 4) <= through)
    .sort();
  const server = new URL(url);
  const name = decodeURIComponent(server.pathname.slice(1));
  server.pathname = "/";
  const admin = await mysql.createConnection({ uri: server.toString() });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const connection = await mysql.createConnection({ uri: url });
  try {
    for (const file of files)
      for (const statement of readFileSync(new URL(file, folder), "utf8").split("--> statement-breakpoint"))
        if (statement.replace(/^--.*$/gm, "").trim()) await connection.query(statement);
  } finally {
    await connection.end();
  }
}
