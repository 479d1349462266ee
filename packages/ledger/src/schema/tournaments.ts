import { index, mysqlTable, primaryKey, varchar } from "drizzle-orm/mysql-core";
import { createdAt, idString, money, rowId, timestamp3 } from "./columns.ts";

export const tournamentRules = ["payout", "stake"] as const;
export type TournamentRule = (typeof tournamentRules)[number];

/** A tournament on one game; a closed round adds to each player's score per its rule while it runs. */
export const tournaments = mysqlTable(
  "tournaments",
  {
    id: rowId("id").autoincrement().primaryKey(),
    tenantId: rowId("tenant_id").notNull(),
    game: idString("game", 128).notNull(),
    name: varchar("name", { length: 128 }).notNull(),
    rule: varchar("rule", { length: 16, enum: tournamentRules }).notNull(),
    startsAt: timestamp3("starts_at").notNull(),
    endsAt: timestamp3("ends_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("tournaments_tenant_game").on(t.tenantId, t.game)],
);

export const tournamentScores = mysqlTable(
  "tournament_scores",
  {
    tournamentId: rowId("tournament_id").notNull(),
    playerId: rowId("player_id").notNull(),
    score: money("score").notNull(),
    rounds: rowId("rounds").notNull(),
    updatedAt: timestamp3("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tournamentId, t.playerId] }),
    index("tournament_scores_rank").on(t.tournamentId, t.score),
  ],
);
