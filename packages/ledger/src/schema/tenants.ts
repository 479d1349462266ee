import { mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, rowId } from "./columns.ts";

/** An operator as the platform knows it. Secrets are configuration (TENANTS), never stored here. */
export const tenants = mysqlTable("tenants", {
  id: rowId("id").primaryKey(),
  publicKey: idString("public_key", 128).notNull().unique(),
  name: varchar("name", { length: 128 }).notNull(),
  createdAt: createdAt(),
});
