import { describeIssues } from "@wallet/contracts/validation";
import type { Response } from "express";
import type { z } from "zod";
import { sendError } from "./respond.ts";

/** Parses with a zod schema; on failure answers 400 naming each field and returns undefined. */
export function validated<S extends z.ZodType>(
  res: Response,
  schema: S,
  value: unknown,
): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  sendError(res, "BAD_REQUEST", describeIssues(result.error));
  return undefined;
}
