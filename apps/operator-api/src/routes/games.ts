import type { TenantConfig } from "@wallet/contracts/tenants";
import type { GameCatalog } from "@wallet/platform-client/game-catalog";
import { Router } from "express";
import { operatorOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";

/** The platform's catalog through the operator's cache, and its explicit invalidation. */
export function gameRoutes(tenants: TenantConfig[], catalogFor: (tenantId: number) => GameCatalog): Router {
  const router = Router();
  router.get("/v1/games", async (req, res) => {
    const operator = operatorOf(req, res, tenants);
    if ("error" in operator) return sendError(res, operator.code, operator.error);
    const { games, fetchedAt, stale } = await catalogFor(operator.tenantId).list();
    sendJson(res, 200, { games, fetched_at: new Date(fetchedAt).toISOString(), stale });
  });
  router.post("/v1/games/cache/invalidate", (req, res) => {
    const operator = operatorOf(req, res, tenants);
    if ("error" in operator) return sendError(res, operator.code, operator.error);
    catalogFor(operator.tenantId).invalidate();
    res.status(204).end();
  });
  return router;
}
