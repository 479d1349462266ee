import { limits } from "@wallet/contracts/limits";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { z } from "zod";
import { readRoute } from "./read-route.ts";
import { millisField, userPath } from "./shapes.ts";

const player = z.object({
  user_id: z.string(),
  operator_id: z.int(),
  username: z.string(),
  currency: z.string(),
  balance: millisField,
  maxbet: millisField,
  minbet: millisField.optional(),
  maxwin: millisField.optional(),
  loyalty_points: z.int(),
  rg: z
    .array(
      z.object({
        day: z.iso.date(),
        staked: millisField,
        won: millisField,
        net_loss: millisField,
        rounds: z.int(),
      }),
    )
    .meta({ description: "responsible-gaming counters per day, newest first (31 days at most)" }),
});

/** `GET /v1/players/:user_id`: balance, loyalty points and rg counters. */
export const getPlayerRoute = readRoute({
  path: "/v1/players/:user_id",
  summary: "A player: balance, loyalty points, rg counters",
  param: {
    name: "user_id",
    noun: "player",
    schema: userPath.shape.user_id,
    problem: `must be 1 to ${limits.userId.max} characters, not only whitespace`,
  },
  answer: player,
  find: ({ ctx }, tenantId, userId) => playerSummary({ ctx, input: { tenantId, userId } }),
});
