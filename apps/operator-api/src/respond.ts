import { codeToStatus, type ErrorCode, WalletError } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import { PlatformError } from "@wallet/platform-client/platform-error";
import type { Response } from "express";

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type("application/json").send(stringifyJson(body));
}

/** A refusal, named by its code: `{code, message}` with the HTTP status as `code`. */
export function sendError(res: Response, code: ErrorCode, message: string): void {
  const status = codeToStatus(code);
  sendJson(res, status, { code: status, message });
}

/** What the platform's failures mean to our caller: the operator's request or the platform is at fault. */
const platformCodes: Record<PlatformError["kind"], ErrorCode> = {
  bad_request: "BAD_GATEWAY",
  unauthorized: "BAD_GATEWAY",
  not_found: "NOT_FOUND",
  demo_not_available: "BAD_REQUEST",
  unavailable: "UNAVAILABLE",
  invalid_response: "BAD_GATEWAY",
};

/**
 * The operator API's one error path, for whatever a route throws: an expected ledger refusal
 * (`WalletError`) or a platform failure is answered with its code; anything else is unexpected,
 * and `undefined` leaves it to the caller (logged, 503).
 */
export function codeOfError(error: unknown): ErrorCode | undefined {
  if (error instanceof WalletError && !error.retryable) return error.code;
  if (error instanceof PlatformError) return platformCodes[error.kind];
  return undefined;
}
