import { z } from "zod";

/**
 * Shapes shared by the routes' documentation: path parameters and the pieces of answers. Answers
 * are described as they travel (JSON), so money, bigint millis inside, is an integer JSON number
 * here: `stringifyJson` writes every digit, never a float.
 */
export const millisField = z.int().meta({ description: "integer millis" });
export const timestampField = z.iso.datetime().meta({ description: "ISO 8601, UTC" });

/** A player's path: any string; an unknown one is a 404 (the ledger's lookup says so). */
export const userPath = z.object({ user_id: z.string() });

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
