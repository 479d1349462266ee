import { z } from "zod";

/**
 * Identifier strings from the platform; bounded so they fit their columns and indexes (which count
 * characters: the bound here counts UTF-16 units, never fewer). Ids compare byte for byte, so one
 * of only whitespace would be an id that looks like none: refused like an empty one.
 */
export const identifier = (max = 128) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .refine((id) => id === "" || /\S/.test(id), "must not be only whitespace");

export const currency = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO currency code in upper case");
