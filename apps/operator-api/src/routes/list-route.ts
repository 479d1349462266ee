import type { z } from "zod";
import { tenantOf } from "../operator.ts";
import { sendJson } from "../respond.ts";
import type { OperatorRoute } from "../route.ts";
import type { RouteDeps } from "../route-deps.ts";
import { validated } from "../validate.ts";

/**
 * One shape for every list of an operator's own records: which operator → the query, validated whole
 * (400 naming each field) → the ledger read → 200 with what it found.
 */
export function listRoute<Q extends z.ZodObject>(list: {
  path: string;
  summary: string;
  query: Q;
  answer: { description: string; schema: z.ZodType };
  find: (deps: RouteDeps, tenantId: number, query: z.output<Q>) => Promise<unknown>;
}): OperatorRoute {
  return {
    method: "get",
    path: list.path,
    summary: list.summary,
    request: { query: list.query },
    responses: { 200: list.answer, 400: "invalid query" },
    async handler(req, res, deps) {
      const tenantId = tenantOf(req, res, deps.tenants);
      if (tenantId === undefined) return;
      const query = validated(res, list.query, req.query);
      if (!query) return;
      sendJson(res, 200, await list.find(deps, tenantId, query));
    },
  };
}
