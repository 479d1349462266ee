import { WalletError } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import { PlatformError } from "@wallet/platform-client/platform-error";
import type { Response } from "express";

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type("application/json").send(stringifyJson(body));
}

/** Errors are `{code, message}` with the HTTP status as `code`. */
export function sendError(res: Response, status: number, message: string): void {
  sendJson(res, status, { code: status, message });
}

/** Expected failures become their status; the platform's become 404/400 or 502/503; the rest propagate (5xx). */
export function sendFailure(res: Response, error: unknown): void {
  if (error instanceof WalletError && !error.retryable) {
    sendError(res, error.status, error.message);
    return;
  }
  if (error instanceof PlatformError) {
    const status: Record<PlatformError["kind"], number> = {
      bad_request: 502,
      unauthorized: 502,
      not_found: 404,
      demo_not_available: 400,
      unavailable: 503,
      invalid_response: 502,
    };
    sendError(res, status[error.kind], error.message);
    return;
  }
  throw error;
}
