import { z } from "zod";
import type { Limit } from "./limits.ts";

const stringError = (issue: { input: unknown }) =>
  issue.input === undefined ? "is required" : "must be a string";

/**
 * An identifier string within its limit (`limits.ts`): 1 to `max` characters, counted as Unicode
 * code points, as zod's `max` counts them and as a utf8mb4 column does (a character past U+FFFF is
 * one character of 4 bytes there, but two UTF-16 units of JS `.length`). Ids compare byte for byte,
 * so one of only whitespace would be an id that looks like none: refused like an empty one.
 */
export const identifier = (limit: Limit) =>
  z
    .string({ error: stringError })
    // What the pipe below checks, said where a JSON Schema of the input reads it (zod documents a
    // pipe's input by its first part): 1 to `max` characters, one of them not whitespace.
    .meta({ minLength: limit.min, maxLength: limit.max, pattern: "\\S" })
    // Piped, so a value that is no string is refused for that alone: zod would also judge the length
    // of an array (`[]`: "must not be empty"), and what a refusal says would hang on content no rule reads.
    .pipe(idText(limit));

/** `identifier`'s rules for a value that is always a string: a path segment, a CLI argument. */
export const idText = (limit: Limit) =>
  z
    .string()
    .min(limit.min, "must not be empty")
    .max(limit.max, `must be at most ${limit.max} characters`)
    .refine((id) => id === "" || /\S/.test(id), "must not be only whitespace");

/** A free text within its limit (`limits.ts`), in code points: a label, a note, a reason. */
export const text = (limit: Limit) => {
  const bounded = z.string({ error: stringError }).max(limit.max, `must be at most ${limit.max} characters`);
  return limit.min > 0 ? bounded.min(limit.min, "must not be empty") : bounded;
};

/** A text bounded in UTF-8 bytes (`limits.ts`): what travels percent-encoded, a URL. */
export const textOfBytes = (limit: Limit) =>
  z
    .string({ error: stringError })
    .refine((value) => Buffer.byteLength(value) <= limit.max, `must be at most ${limit.max} bytes of UTF-8`);

export const currency = z
  .string({ error: stringError })
  .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO currency code in upper case");
