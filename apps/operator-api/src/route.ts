import { limits } from "@wallet/contracts/limits";
import type { Request, Response } from "express";
import type { z } from "zod";
import type { RouteDeps } from "./route-deps.ts";

/**
 * A documented answer: its description, and the shape of its JSON body (none: no body, as a 204), or
 * the media type of a body that is not JSON (bytes as received, say).
 */
export interface RouteAnswer {
  description: string;
  schema?: z.ZodType;
  mediaType?: "application/octet-stream";
}

/**
 * One operator-API route, defined once: app.ts mounts it and openapi.ts documents it from the same
 * object, so the document cannot drift from what is served. The request shapes are the zod schemas
 * the handler validates with (each handler keeps its own order of checks: which refusal wins when a
 * request has several is part of its behaviour). `responses` lists every status it answers; a bare
 * string is a refusal, `{code, message}`.
 */
export interface OperatorRoute {
  method: "get" | "post";
  /** Express's pattern (`/v1/players/:user_id`); the document writes it `/v1/players/{user_id}`. */
  path: string;
  summary: string;
  request: { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodType };
  responses: Record<number, RouteAnswer | string>;
  /** The JSON body limit, when not the 64 KiB every other route takes. */
  bodyLimitBytes?: (deps: RouteDeps) => number;
  handler: (req: Request, res: Response, deps: RouteDeps) => Promise<void>;
}

/**
 * Whether a route reads a JSON body: every write does (an empty one, or one naming only `operatorId`,
 * at least); a read takes none, so what a GET carries never changes its answer.
 */
export const readsBody = (route: Pick<OperatorRoute, "method">) => route.method !== "get";

/** What a route's JSON body may weigh unless it says otherwise (`bodyLimitBytes`): 64 KiB (`limits.ts`). */
export const defaultBodyLimitBytes = limits.operatorApiBody.max;

/** `/v1/players/:user_id` → `/v1/players/{user_id}`: the OpenAPI spelling of an Express pattern. */
export const documentedPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** A named path parameter: one path segment, so a string (a wildcard's list never names one here). */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === "string" ? value : "";
}
