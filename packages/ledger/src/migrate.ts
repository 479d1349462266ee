import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/mysql2/migrator";
import mysql from "mysql2/promise";
import { createDatabase } from "./db.ts";

const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));

/** Database name from a `mysql://…/name` URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_$-]{1,64}$/.test(name))
    throw new Error(`DATABASE_URL names no usable database: "${name}"`);
  return name;
}

/**
 * Creates the database when missing and applies the committed migrations. A named lock makes
 * concurrent runs (several processes starting at once) apply them one at a time.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await onServer(
    url,
    `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  const { db, close } = createDatabase({ url, poolSize: 1 });
  try {
    const lock = `wallet_migrate_${name}`;
    await db.execute(`SELECT GET_LOCK('${lock}', 60)`);
    try {
      await migrate(db, { migrationsFolder });
    } finally {
      await db.execute(`SELECT RELEASE_LOCK('${lock}')`);
    }
  } finally {
    await close();
  }
}

/** Drops a database (tests use their own throwaway databases). */
export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, `DROP DATABASE IF EXISTS \`${databaseName(url)}\``);
}

/** Runs one statement on the server of `url`, outside any database. */
async function onServer(url: string, statement: string): Promise<void> {
  const server = new URL(url);
  server.pathname = "/";
  const admin = await mysql.createConnection({ uri: server.toString() });
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
