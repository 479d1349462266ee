import { z } from "zod";

/** Identifier strings from the platform; bounded so they fit their columns and indexes. */
export const identifier = (max = 128) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

export const currency = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO currency code in upper case");
