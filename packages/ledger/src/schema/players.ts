import { userIdMax } from "@wallet/contracts/user-token";
import { char, index, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, money, rowId } from "./columns.ts";

/** A player of one tenant; `user_id` is the operator's own id, sent in every callback. */
export const players = mysqlTable(
  "players",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    userId: idString("user_id", userIdMax).notNull(),
    username: varchar("username", { length: 128 }).notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    maxbet: money("maxbet").notNull(),
    minbet: money("minbet"),
    maxwin: money("maxwin"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("players_tenant_user").on(t.tenantId, t.userId),
    index("players_tenant").on(t.tenantId),
  ],
);
