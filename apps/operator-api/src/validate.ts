import type { TenantConfig } from "@wallet/contracts/tenants";
import { describeIssues } from "@wallet/contracts/validation";
import type { Request, Response } from "express";
import type { z } from "zod";
import { tenantOf } from "./operator.ts";
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
