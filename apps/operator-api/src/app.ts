import { codeOfHttpStatus } from "@wallet/contracts/errors";
import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import { findOperatorToken } from "@wallet/ledger/verbs/operator-tokens";
import type { Logger } from "@wallet/telemetry/logger";
import express, { type NextFunction, type Request, type Response } from "express";
import { authenticateOperator } from "./bearer.ts";
import type { OperatorApiMetrics } from "./metrics.ts";
import { openApiDocument } from "./openapi.ts";
import { codeOfError, sendError } from "./respond.ts";
import { auditRoutes } from "./routes/audit.ts";
import { closeRoutes } from "./routes/closes.ts";
import { gameRoutes } from "./routes/games.ts";
import { type PlayerRouteDeps, playerRoutes } from "./routes/players.ts";
import { readRoutes } from "./routes/reads.ts";

export interface OperatorApiDeps extends PlayerRouteDeps {
  ctx: LedgerContext;
  tenants: TenantConfig[];
  token: string;
  logger: Logger;
  metrics: OperatorApiMetrics;
}

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
  app.use(authenticateOperator(deps.token, (token) => findOperatorToken(deps.ctx.db, token)));
  // Before the 64 KiB body limit: a manual CLOSE_ROUND is as large as its round.
  app.use(closeRoutes(deps));
  app.use(express.json({ limit: "64kb" }));
  app.use(readRoutes(deps.ctx, deps.tenants));
  app.use(auditRoutes(deps.ctx, deps.tenants));
  app.use(playerRoutes(deps));
  app.use(gameRoutes(deps));
  app.use((_req: Request, res: Response) => sendError(res, "NOT_FOUND", "no such route"));
  // The one error path: what a route throws is answered here, by its code (`codeOfError`).
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { status, type } = error as { status?: unknown; type?: unknown };
    // Express's path decoding fails with a URIError (status 400) on a malformed `%`: say so, not "JSON".
    if (error instanceof URIError)
      return sendError(res, "BAD_REQUEST", "the path holds a malformed %-escape");
    // First what a route threw on purpose (a WalletError carries a status too), then Express's own.
    const code = codeOfError(error);
    if (code) return sendError(res, code, error instanceof Error ? error.message : String(error));
    if (typeof status === "number" && status >= 400 && status < 500) {
      const message =
        status === 413
          ? "body too large"
          : type === "entity.parse.failed"
            ? "body is not valid JSON"
            : "unreadable request";
      return sendError(res, codeOfHttpStatus(status), message);
    }
    deps.logger.error({ err: error }, "operator API request failed");
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
