import { sql } from "drizzle-orm";
import { bigint, customType, datetime } from "drizzle-orm/mysql-core";

/**
 * Identifiers from the platform and the operator compare byte for byte: under a case-insensitive
 * collation `TX1` and `tx1` would collide on the idempotency key, and under a PAD SPACE one
 * (`utf8mb4_bin`) `X` and `X ` would: a BET for `"<user_id> "` debited `<user_id>`. They are stored
 * as their UTF-8 bytes in VARBINARY, the one exact (NO PAD, byte for byte) string type MySQL 8.4,
 * MariaDB 10.11 and TiDB share: no NO PAD utf8mb4 collation has the same name on all three
 * (MariaDB's `utf8mb4_nopad_bin`, MySQL's and TiDB's `utf8mb4_0900_bin`, which MariaDB has only from
 * 11.4.5). `length` counts characters, as the API's bounds do: the column holds 4 bytes for each,
 * the most a UTF-8 character takes. Read back as strings (`db.ts` decodes them as UTF-8).
 */
export const idString = (name: string, length: number) =>
  customType<{ data: string; driverData: string }>({
    dataType: () => `varbinary(${length * 4})`,
    fromDriver: (value: unknown) => (Buffer.isBuffer(value) ? value.toString("utf8") : String(value)),
  })(name);

/** Money: signed 64-bit integer millis, read and written as bigint. */
export const money = (name: string) => bigint(name, { mode: "bigint" });

/** Row ids: auto-increment, safe as JS numbers for the life of the service. */
export const rowId = (name = "id") => bigint(name, { mode: "number", unsigned: true });

/** Millisecond timestamps in UTC (every pooled connection runs with time_zone '+00:00'). */
export const timestamp3 = (name: string) => datetime(name, { mode: "date", fsp: 3 });
export const createdAt = () => timestamp3("created_at").notNull().default(sql`CURRENT_TIMESTAMP(3)`);
