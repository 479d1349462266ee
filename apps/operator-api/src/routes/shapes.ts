import { idText } from "@wallet/contracts/fields";
import { limits } from "@wallet/contracts/limits";
import { z } from "zod";

/**
 * Shapes shared by the routes' documentation: path parameters and the pieces of answers. Answers
 * are described as they travel (JSON), so money, bigint millis inside, is an integer JSON number
 * here: `stringifyJson` writes every digit, never a float.
 */
export const millisField = z.int().meta({ description: "integer millis" });
export const timestampField = z.iso.datetime().meta({ description: "ISO 8601, UTC" });

/**
 * A player's path: a `user_id` within its limit (`limits.ts`, code points), checked for every route
 * from this shape (`app.ts`) before anything else reads it; an unknown one is a 404.
 */
export const userPath = z.object({ user_id: idText(limits.userId) });
/** A round's path: a round id within its limit, as every callback's `action_id`. */
export const roundPath = z.object({ round_id: idText(limits.roundId) });

/** The refusal every route answers with: `code` is the HTTP status. */
export const errorAnswer = z.object({
  code: z.int(),
  message: z.string(),
  data: z.unknown().optional().meta({
    description: "a ledger refusal passed on may carry its data (a conflict: the first answer)",
  }),
});

/** A value the ledger stored as JSON, passed on whole: documented as any JSON value. */
export const anyJson = z.unknown().meta({ description: "any JSON value, as stored" });
