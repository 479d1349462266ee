import type { TenantConfig } from "@wallet/contracts/tenants";
import { describeIssues } from "@wallet/contracts/validation";
import type { NextFunction, Request, Response } from "express";
import type { z } from "zod";
import { tenantOf } from "./operator.ts";
import { sendError } from "./respond.ts";

/**
 * A route's path parameters against the shape it documents (`request.params`), before its body is
 * read or its handler runs: 400 naming each. So every id in a path is held to its limit
 * (`limits.ts`) by the one shape, on every route, and none can forget it.
 */
export function checkedPath(schema: z.ZodType | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    const checked = schema?.safeParse(req.params);
    if (checked && !checked.success) return sendError(res, "BAD_REQUEST", describeIssues(checked.error));
    next();
  };
}

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

/**
 * The input (400 naming each bad field), then which operator it acts for (`tenantOf`: 400 or 404), in
 * that order: both, or undefined once the refusal has been answered.
 */
export function validatedFor<S extends z.ZodType>(
  req: Request,
  res: Response,
  tenants: TenantConfig[],
  schema: S,
  value: unknown,
): { input: z.output<S>; tenantId: number } | undefined {
  const input = validated(res, schema, value);
  if (input === undefined) return undefined;
  const tenantId = tenantOf(req, res, tenants);
  return tenantId === undefined ? undefined : { input, tenantId };
}
