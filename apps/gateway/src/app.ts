import { callbacksOpenApi } from "@wallet/contracts/callbacks-openapi";
import { codeOfHttpStatus } from "@wallet/contracts/errors";
import { callbackOps } from "@wallet/contracts/jobs";
import type { Logger } from "@wallet/telemetry/logger";
import { withSpanActive } from "@wallet/telemetry/spans";
import express, { type NextFunction, type Request, type Response } from "express";
import { type CallbackDeps, callbackHandler } from "./callback.ts";
import { sendError } from "./envelope.ts";
import { localsOf, observeCallback } from "./observe.ts";

export interface AppDeps extends CallbackDeps {
  /** /deposit's limit: a CLOSE_ROUND may be that large; any other body is held to `bodyLimitBytes`. */
  closeRoundBodyLimitBytes: number;
  maxInFlight: number;
  readiness: () => Promise<{ ready: boolean; checks: Record<string, unknown> }>;
  logger: Logger;
}

/** The callback endpoints at the root of the wallet base URL, plus health. */
export function createApp(deps: AppDeps) {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  const { metrics } = deps;

  let inFlight = 0;
  const admit = (endpoint: string) => (_req: Request, res: Response, next: NextFunction) => {
    // Shed at once when full: a queue growing without bound would only turn into timeouts.
    if (inFlight >= deps.maxInFlight) {
      metrics.shed.inc({ endpoint });
      return sendError(res, "OVERLOADED", "gateway overloaded; retry");
    }
    inFlight += 1;
    metrics.inFlight.set(inFlight);
    res.once("close", () => {
      inFlight -= 1;
      metrics.inFlight.set(inFlight);
    });
    next();
  };
  const rawBody = (limit: number) => express.raw({ type: () => true, limit, inflate: false });
  const smallBody = rawBody(deps.bodyLimitBytes);
  const closeBody = rawBody(Math.max(deps.bodyLimitBytes, deps.closeRoundBodyLimitBytes));
  // Only a known operator may send /deposit a body past the ordinary limit (its closes); anybody
  // else is held to it, chunked or not, before their bytes are read into memory.
  const depositBody = (req: Request, res: Response, next: NextFunction) =>
    deps.tenantFor(req.get("x-public-key")) ? closeBody(req, res, next) : smallBody(req, res, next);

  for (const op of callbackOps) {
    const handle = callbackHandler(op, deps);
    const body = op === "deposit" ? depositBody : smallBody;
    app.post(`/${op}`, observeCallback(op, metrics), admit(op), body, (req, res, next) => {
      // The body parser resumes on the socket's async context: the request's span is made active again.
      withSpanActive(localsOf(res).span, () => handle(req, res)).catch(next);
    });
  }

  app.get("/healthz", (_req, res) => {
    res.json({ status: "alive" });
  });
  app.get("/readyz", async (_req, res) => {
    const { ready, checks } = await deps.readiness();
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not ready", ...checks });
  });

  // The callbacks' OpenAPI document for the platform's integrators, unsigned like the probes.
  app.get("/openapi.json", (_req, res) => {
    res.json(callbacksOpenApi);
  });

  app.use((_req: Request, res: Response) => sendError(res, "NOT_FOUND", "no such endpoint"));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { status, limit } = error as { status?: unknown; limit?: unknown };
    if (typeof status === "number" && status >= 400 && status < 500) {
      const message = status === 413 ? `body larger than ${limit} bytes` : "unreadable request body";
      return sendError(res, codeOfHttpStatus(status), message);
    }
    deps.logger.error({ err: error }, "callback failed");
    sendError(res, "UNAVAILABLE", "temporarily unavailable; retry");
  });
  return app;
}
