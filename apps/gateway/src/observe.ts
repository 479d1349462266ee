import { contextFrom, markFailed, type Span, SpanKind, startSpan } from "@wallet/telemetry/spans";
import type { NextFunction, Request, Response } from "express";
import type { GatewayMetrics } from "./metrics.ts";

/** What a callback's handler learns as it goes, read when the answer is sent. */
export interface CallbackLocals {
  span: Span;
  /** The body's action once parsed (`none` for /auth and /balance); `unknown` until then. */
  action?: string;
}

export function localsOf(res: Response): CallbackLocals {
  return res.locals as CallbackLocals;
}

/**
 * First on every callback route: starts the request's server span (continuing the platform's
 * trace when it sends `traceparent`) and, when the answer has gone, records RED metrics.
 */
export function observeCallback(endpoint: string, metrics: GatewayMetrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const stopTimer = metrics.callbackDuration.startTimer();
    const span = startSpan(
      `POST /${endpoint}`,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": "POST", "http.route": `/${endpoint}` } },
      contextFrom(req.headers),
    );
    const locals = localsOf(res);
    locals.span = span;
    res.once("close", () => {
      // A client that hung up before its answer gets no HTTP status: counted as 499, nginx's code.
      const status = res.writableFinished ? res.statusCode : 499;
      const action = locals.action ?? "unknown";
      stopTimer({ endpoint, action, status: String(status) });
      span.setAttribute("http.response.status_code", status);
      span.setAttribute("wallet.action", action);
      if (status >= 500) markFailed(span, `answered ${status}`);
      span.end();
    });
    next();
  };
}
