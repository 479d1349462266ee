import { z } from "zod";

/**
 * Identifier strings from the platform; bounded so they fit their columns and indexes. Both count
 * characters as Unicode code points: zod's `max` does, and so does a utf8mb4 VARCHAR (a character
 * past U+FFFF is one character of 4 bytes there, but two UTF-16 units of JS `.length`). Ids compare
 * byte for byte, so one of only whitespace would be an id that looks like none: refused like an
 * empty one.
 */
export const identifier = (max = 128) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    // What the pipe below checks, said where a JSON Schema of the input reads it (zod documents a
    // pipe's input by its first part): 1 to `max` characters, one of them not whitespace.
    .meta({ minLength: 1, maxLength: max, pattern: "\\S" })
    // Piped, so a value that is no string is refused for that alone: zod would also judge the length
    // of an array (`[]`: "must not be empty"), and what a refusal says would hang on content no rule reads.
    .pipe(
      z
        .string()
        .min(1, "must not be empty")
        .max(max, `must be at most ${max} characters`)
        .refine((id) => id === "" || /\S/.test(id), "must not be only whitespace"),
    );

export const currency = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO currency code in upper case");
