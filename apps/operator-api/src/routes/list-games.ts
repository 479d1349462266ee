import { game } from "@wallet/contracts/game";
import { z } from "zod";
import { tenantOf } from "../operator.ts";
import { sendJson } from "../respond.ts";
import type { OperatorRoute } from "../route.ts";
import { timestampField } from "./shapes.ts";

const catalog = z.object({
  games: z.array(game),
  fetched_at: timestampField,
  stale: z.boolean().meta({ description: "served from an expired copy because the platform failed" }),
});

/** `GET /v1/games`: the operator's catalog through the cache (catalogs are per operator). */
export const listGamesRoute: OperatorRoute = {
  method: "get",
  path: "/v1/games",
  summary: "The platform's catalog through the cache",
  request: {},
  responses: {
    200: { description: "{games, fetched_at, stale}", schema: catalog },
    502: "the platform refused our request",
    503: "the platform is unavailable and nothing is cached",
  },
  async handler(req, res, deps) {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const { games, fetchedAt, stale } = await deps.platform.catalogFor(tenantId).list();
    sendJson(res, 200, { games, fetched_at: new Date(fetchedAt).toISOString(), stale });
  },
};
