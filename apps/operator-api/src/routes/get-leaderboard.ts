import { tournamentLeaderboard } from "@wallet/ledger/reads/leaderboard";
import { tournamentRules } from "@wallet/ledger/schema/tournaments";
import { z } from "zod";
import { readRoute } from "./read-route.ts";
import { millisField, timestampField } from "./shapes.ts";

const leaderboard = z.object({
  tournament: z.object({
    id: z.int(),
    name: z.string(),
    game: z.string(),
    rule: z.enum(tournamentRules),
    starts_at: timestampField,
    ends_at: timestampField,
  }),
  leaderboard: z.array(
    z.object({
      rank: z.int(),
      user_id: z.string(),
      username: z.string(),
      score: millisField,
      rounds: z.int(),
    }),
  ),
});

/** `GET /v1/tournaments/:id/leaderboard`: the tournament and its ranking, best first. */
export const getLeaderboardRoute = readRoute({
  path: "/v1/tournaments/:id/leaderboard",
  summary: "A tournament's leaderboard",
  param: {
    name: "id",
    noun: "tournament",
    schema: z.coerce
      .number({ error: "must be a positive integer" })
      .int({ error: "must be a positive integer" })
      .positive({ error: "must be a positive integer" }),
    problem: "must be a positive integer",
  },
  answer: leaderboard,
  find: ({ ctx }, tenantId, tournamentId) =>
    tournamentLeaderboard({ ctx, input: { tenantId, tournamentId } }),
});
