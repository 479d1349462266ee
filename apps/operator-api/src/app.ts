import { codeOfHttpStatus } from "@wallet/contracts/errors";
import { isDatabaseRefused } from "@wallet/ledger/mysql-errors";
import { findOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import type { Logger } from "@wallet/telemetry/logger";
import express, { type NextFunction, type Request, type Response } from "express";
import { authenticateOperator } from "./bearer.ts";
import type { OperatorApiMetrics } from "./metrics.ts";
import { openApiDocument } from "./openapi.ts";
import { codeOfError, sendError } from "./respond.ts";
import { defaultBodyLimitBytes, readsBody } from "./route.ts";
import type { RouteDeps } from "./route-deps.ts";
import { operatorRoutes } from "./route-list.ts";
import { tokenLookup } from "./token-lookup.ts";
import { checkedPath } from "./validate.ts";

export interface OperatorApiDeps extends RouteDeps {
  token: string;
  /** OPERATOR_API_UNKNOWN_TOKEN_CACHE_MS: how long a token found nowhere stays refused without a read. */
  unknownTokenCacheMs: number;
  logger: Logger;
  metrics: OperatorApiMetrics;
}

/** What the probes and the document answer without a token: not operator routes, not documented. */
export const publicRoutes = ["GET /healthz", "GET /readyz", "GET /openapi.json"];

/** The operator's own API: bearer-protected JSON, never exposed to the platform. */
export function createOperatorApi(deps: OperatorApiDeps) {
  const app = express();
  app.disable("x-powered-by");
  app.use(observeRequests(deps.metrics));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "alive" });
  });
  // Outside the bearer token, like /healthz: the orchestrator's probe carries no token.
  app.get("/readyz", (_req, res) => {
    const { ready, checks } = deps.metrics.dependencies.readiness(["mysql", "redis"]);
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not ready", ...checks });
  });
  app.get("/openapi.json", (_req, res) => {
    res.json(openApiDocument);
  });
  // A live token is read on every request: a revocation holds from the next request on (token-lookup.ts).
  const findToken = tokenLookup((token) => findOperatorToken(deps.ctx.db, token), {
    unknownTtlMs: deps.unknownTokenCacheMs,
  });
  app.use(authenticateOperator(deps.token, findToken));
  // Every route from the one list the document is built from, each write with its own body limit;
  // a read takes no body (one sent is never read, so it cannot change the answer or be refused).
  for (const route of operatorRoutes) {
    const limit = route.bodyLimitBytes?.(deps) ?? defaultBodyLimitBytes;
    const body = readsBody(route) ? [express.json({ limit })] : [];
    app[route.method](route.path, checkedPath(route.request.params), ...body, (req: Request, res: Response) =>
      route.handler(req, res, deps),
    );
  }
  // No route matched: the body is still read (a malformed or oversized one says so), then a 404.
  app.use(express.json({ limit: defaultBodyLimitBytes }));
  app.use((_req: Request, res: Response) => sendError(res, "NOT_FOUND", "no such route"));
  // The one error path: what a route throws is answered here, by its code (`codeOfError`).
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { status, type, limit } = error as { status?: unknown; type?: unknown; limit?: unknown };
    // Express's path decoding fails with a URIError (status 400) on a malformed `%`: say so, not "JSON".
    if (error instanceof URIError)
      return sendError(res, "BAD_REQUEST", "the path holds a malformed %-escape");
    // First what a route threw on purpose (a WalletError carries a status too), then Express's own.
    const code = codeOfError(error);
    if (code) return sendError(res, code, error instanceof Error ? error.message : String(error));
    if (typeof status === "number" && status >= 400 && status < 500) {
      const message =
        status === 413
          ? `body too large: this route takes at most ${String(limit)} bytes`
          : status === 415
            ? "the body's Content-Encoding or charset cannot be read: send it as identity, gzip, deflate or br, in UTF-8"
            : type === "entity.parse.failed"
              ? "body is not valid JSON"
              : "unreadable request";
      return sendError(res, codeOfHttpStatus(status), message);
    }
    // A fenced database (its server read-only) or a refused session was logged once: not each request refused.
    if (!isDatabaseRefused(error)) deps.logger.error({ err: error }, "operator API request failed");
    sendError(res, "UNAVAILABLE", "temporarily unavailable; retry");
  });
  return app;
}

/** RED per route pattern (`/v1/players/:user_id`), recorded when the answer has gone. */
function observeRequests(metrics: OperatorApiMetrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const stopTimer = metrics.requestDuration.startTimer();
    res.once("close", () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : "unmatched";
      stopTimer({ route, method: req.method, status: String(res.writableFinished ? res.statusCode : 499) });
    });
    next();
  };
}
