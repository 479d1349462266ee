import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import { listOperatorActions } from "@wallet/ledger/verbs/operator-audit";
import { Router } from "express";
import { z } from "zod";
import { tenantOf } from "../operator.ts";
import { sendJson } from "../respond.ts";
import { validated } from "../validate.ts";

const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().positive().optional(),
  operatorId: z.unknown().optional(),
});

/** `GET /v1/audit`: the operator's writes through this API, newest first, each with the token that made it. */
export function auditRoutes(ctx: LedgerContext, tenants: TenantConfig[]): Router {
  const router = Router();
  router.get("/v1/audit", async (req, res) => {
    const tenantId = tenantOf(req, res, tenants);
    if (tenantId === undefined) return;
    const query = validated(res, auditQuery, req.query);
    if (!query) return;
    sendJson(
      res,
      200,
      await listOperatorActions(ctx.db, { tenantId, limit: query.limit, before: query.before }),
    );
  });
  return router;
}
