import { operatorIdField } from "@wallet/contracts/operator-api";
import type { TenantConfig } from "@wallet/contracts/tenants";
import { describeIssues } from "@wallet/contracts/validation";
import type { Request, Response } from "express";
import { z } from "zod";
import { principalOf } from "./bearer.ts";
import { sendError } from "./respond.ts";

const operatorQuery = z.object({
  operatorId: z.coerce
    .number({ error: "must be a positive integer" })
    .int({ error: "must be a positive integer" })
    .positive({ error: "must be a positive integer" })
    .optional(),
});
const operatorBody = z.object({ operatorId: operatorIdField.optional() });

/**
 * Which operator a request is about: `operatorId` from the JSON body or `?operatorId=` (both only if
 * they agree: two different operators in one request is a 400, never a silent choice of one), else
 * the caller's token's operator, else the only configured one. A token of one operator asking about
 * another gets a 404 whether that operator exists or not: never a 403 that would tell it does.
 * The body is read here, for every route, so no route can forget it and act for the query's operator
 * (or the token's) while its body names another.
 */
export function operatorOf(
  req: Request,
  res: Response,
  tenants: TenantConfig[],
): { tenantId: number } | { code: "BAD_REQUEST" | "NOT_FOUND"; error: string } {
  const parsed = operatorQuery.safeParse({ operatorId: req.query.operatorId });
  if (!parsed.success) return { code: "BAD_REQUEST", error: describeIssues(parsed.error) };
  const fromQuery = parsed.data.operatorId;
  // A JSON body is an object on every route, those that read nothing else from it too: an array (the
  // only other JSON the body parser lets through) is refused, never taken for an empty request.
  if (
    req.body !== undefined &&
    (req.body === null || typeof req.body !== "object" || Array.isArray(req.body))
  )
    return { code: "BAD_REQUEST", error: "body: must be a JSON object" };
  const body = operatorBody.safeParse(bodyFields(req.body));
  if (!body.success) return { code: "BAD_REQUEST", error: describeIssues(body.error) };
  const fromBody = body.data.operatorId;
  if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery)
    return {
      code: "BAD_REQUEST",
      error: `operatorId: the body names ${fromBody} and the query ${fromQuery}; send one, or the same`,
    };
  const named = fromBody ?? fromQuery;
  const own = principalOf(res).tenantId;
  if (own !== undefined && named !== undefined && named !== own)
    return { code: "NOT_FOUND", error: `operator ${named} not found` };
  const id = named ?? own ?? (tenants.length === 1 ? tenants[0]?.operatorId : undefined);
  if (id === undefined)
    return { code: "BAD_REQUEST", error: "operatorId: is required when several operators are configured" };
  if (!tenants.some((tenant) => tenant.operatorId === id))
    return { code: "BAD_REQUEST", error: `operatorId: ${id} is not configured` };
  return { tenantId: id };
}

/** The body's `operatorId`, if it names one (no body names none). */
function bodyFields(body: unknown): { operatorId?: unknown } {
  if (body === null || typeof body !== "object" || !("operatorId" in body)) return {};
  return { operatorId: body.operatorId };
}

/** `operatorOf`, answering its refusal (400, or 404 for another operator's data) itself: undefined then. */
export function tenantOf(req: Request, res: Response, tenants: TenantConfig[]) {
  const operator = operatorOf(req, res, tenants);
  if ("error" in operator) {
    sendError(res, operator.code, operator.error);
    return undefined;
  }
  return operator.tenantId;
}
