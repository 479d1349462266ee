import type { TenantConfig } from "@wallet/contracts/tenants";
import { describeIssues } from "@wallet/contracts/validation";
import type { Request } from "express";
import { z } from "zod";

const operatorQuery = z.object({ operatorId: z.coerce.number().int().positive().optional() });

/**
 * Which operator a request is about: `operatorId` from the body, else `?operatorId=`, else the only
 * configured one. Returns a message for a 400 when it cannot tell or the operator is not configured.
 */
export function operatorOf(
  req: Request,
  tenants: TenantConfig[],
  fromBody?: number,
): { tenantId: number } | { error: string } {
  const parsed = operatorQuery.safeParse({ operatorId: req.query.operatorId });
  if (!parsed.success) return { error: describeIssues(parsed.error) };
  const id =
    fromBody ?? parsed.data.operatorId ?? (tenants.length === 1 ? tenants[0]?.operatorId : undefined);
  if (id === undefined) return { error: "operatorId: is required when several operators are configured" };
  if (!tenants.some((tenant) => tenant.operatorId === id))
    return { error: `operatorId: ${id} is not configured` };
  return { tenantId: id };
}
