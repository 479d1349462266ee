import { sql } from "drizzle-orm";
import { bigint, customType, datetime } from "drizzle-orm/mysql-core";

/**
 * Identifiers from the platform and the operator compare byte for byte: under MariaDB's default
 * case-insensitive collation `TX1` and `tx1` would collide on the idempotency key, and under a PAD
 * SPACE one (`utf8mb4_bin`) `X` and `X ` would: a BET for `"<user_id> "` debited `<user_id>`.
 * `length` counts characters (a 4-byte character is one), so an id of the API's longest in any
 * script fits.
 */
export const idString = (name: string, length: number) =>
  customType<{ data: string; driverData: string }>({
    dataType: () => `varchar(${length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin`,
  })(name);

/** Money: signed 64-bit integer millis, read and written as bigint. */
export const money = (name: string) => bigint(name, { mode: "bigint" });

/** Row ids: auto-increment, safe as JS numbers for the life of the service. */
export const rowId = (name = "id") => bigint(name, { mode: "number", unsigned: true });

/** Millisecond timestamps in UTC (every pooled connection runs with time_zone '+00:00'). */
export const timestamp3 = (name: string) => datetime(name, { mode: "date", fsp: 3 });
export const createdAt = () => timestamp3("created_at").notNull().default(sql`CURRENT_TIMESTAMP(3)`);
