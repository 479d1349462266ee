import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import type { GameCatalog } from "@wallet/platform-client/game-catalog";
import { Router } from "express";
import { auditWrite } from "../audit-trail.ts";
import { operatorOf, tenantOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";

export interface GameRouteDeps {
  ctx: LedgerContext;
  tenants: TenantConfig[];
  platform: { catalogFor: (tenantId: number) => GameCatalog };
}

/** The platform's catalog through the operator's cache, and its explicit invalidation. */
export function gameRoutes({ ctx, tenants, platform }: GameRouteDeps): Router {
  const router = Router();
  router.get("/v1/games", async (req, res) => {
    const operator = operatorOf(req, res, tenants);
    if ("error" in operator) return sendError(res, operator.code, operator.error);
    const { games, fetchedAt, stale } = await platform.catalogFor(operator.tenantId).list();
    sendJson(res, 200, { games, fetched_at: new Date(fetchedAt).toISOString(), stale });
  });
  router.post("/v1/games/cache/invalidate", async (req, res) => {
    const tenantId = tenantOf(req, res, tenants);
    if (tenantId === undefined) return;
    platform.catalogFor(tenantId).invalidate();
    // A write like any other (the next lookups go to the platform): on the trail with its token.
    await auditWrite(ctx, res, { tenantId, action: "game_cache_invalidation", subject: "games", detail: {} });
    res.status(204).end();
  });
  return router;
}
