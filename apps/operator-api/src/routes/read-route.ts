import type { Request, Response } from "express";
import { z } from "zod";
import { tenantOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import type { RouteDeps } from "../route-deps.ts";

/**
 * One shape for every read of one thing: which operator → the path parameter → the ledger read →
 * 200, or 404 naming what was not found.
 */
export function readRoute<P>(read: {
  path: string;
  summary: string;
  param: { name: string; noun: string; schema: z.ZodType<P>; problem: string };
  answer: z.ZodType;
  find: (deps: RouteDeps, tenantId: number, value: P) => Promise<unknown>;
}): OperatorRoute {
  const { param } = read;
  return {
    method: "get",
    path: read.path,
    summary: read.summary,
    request: { params: z.object({ [param.name]: param.schema }) },
    responses: {
      200: { description: `the ${param.noun}`, schema: read.answer },
      400: `${param.name} ${param.problem}`,
      404: `unknown ${param.noun}`,
    },
    async handler(req: Request, res: Response, deps: RouteDeps) {
      const tenantId = tenantOf(req, res, deps.tenants);
      if (tenantId === undefined) return;
      // Checked against the same shape before the handler (`checkedPath`): here it is only converted.
      const value = param.schema.safeParse(pathParam(req, param.name));
      if (!value.success) return sendError(res, "BAD_REQUEST", `${param.name}: ${param.problem}`);
      const found = await read.find(deps, tenantId, value.data);
      if (!found) return sendError(res, "NOT_FOUND", `${param.noun} ${String(value.data)} not found`);
      sendJson(res, 200, found);
    },
  };
}
