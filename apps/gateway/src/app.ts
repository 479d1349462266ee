import { callbackOps } from "@wallet/contracts/jobs";
import type { Logger } from "@wallet/telemetry/logger";
import { withSpanActive } from "@wallet/telemetry/spans";
import express, { type NextFunction, type Request, type Response } from "express";
import { type CallbackDeps, callbackHandler } from "./callback.ts";
import { sendEnvelope } from "./envelope.ts";
import { localsOf, observeCallback } from "./observe.ts";

export interface AppDeps extends CallbackDeps {
  bodyLimitBytes: number;
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
      return sendEnvelope(res, 503, "gateway overloaded; retry");
    }
    inFlight += 1;
    metrics.inFlight.set(inFlight);
    res.once("close", () => {
      inFlight -= 1;
      metrics.inFlight.set(inFlight);
    });
    next();
  };
  const rawBody = express.raw({ type: () => true, limit: deps.bodyLimitBytes, inflate: false });

  for (const op of callbackOps) {
    const handle = callbackHandler(op, deps);
    app.post(`/${op}`, observeCallback(op, metrics), admit(op), rawBody, (req, res, next) => {
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

  app.use((_req: Request, res: Response) => sendEnvelope(res, 404, "no such endpoint"));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      const message =
        status === 413 ? `body larger than ${deps.bodyLimitBytes} bytes` : "unreadable request body";
      return sendEnvelope(res, status, message);
    }
    deps.logger.error({ err: error }, "callback failed");
    sendEnvelope(res, 503, "temporarily unavailable; retry");
  });
  return app;
}
