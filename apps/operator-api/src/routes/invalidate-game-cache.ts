import { auditWrite } from "../audit-trail.ts";
import { tenantOf } from "../operator.ts";
import type { OperatorRoute } from "../route.ts";

/** `POST /v1/games/cache/invalidate`: the next catalog lookups go to the platform. */
export const invalidateGameCacheRoute: OperatorRoute = {
  method: "post",
  path: "/v1/games/cache/invalidate",
  summary: "Drop the cached catalog; audited",
  request: {},
  responses: { 204: { description: "dropped" } },
  async handler(req, res, deps) {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    deps.platform.catalogFor(tenantId).invalidate();
    // A write like any other (the next lookups go to the platform): on the trail with its token.
    await auditWrite(deps.ctx, res, {
      tenantId,
      action: "game_cache_invalidation",
      subject: "games",
      detail: {},
    });
    res.status(204).end();
  },
};
