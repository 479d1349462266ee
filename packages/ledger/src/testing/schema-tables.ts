import { is } from "drizzle-orm";
import { getTableConfig, MySqlTable } from "drizzle-orm/mysql-core";
import * as schema from "../schema/index.ts";

/** TEST HELPER: every table of the drizzle schema, as drizzle describes it. */
export const schemaTables = Object.values(schema as Record<string, unknown>)
  .filter((value): value is MySqlTable => is(value, MySqlTable))
  .map((table) => getTableConfig(table));
