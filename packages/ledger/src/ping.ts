import { sql } from "drizzle-orm";
import type { Db } from "./db.ts";

/** Round trip to the database, for readiness checks. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
