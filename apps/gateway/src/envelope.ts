import { codeToStatus, type ErrorCode } from "@wallet/contracts/errors";
import { stringifyJson } from "@wallet/contracts/json";
import type { Response } from "express";

/**
 * The gateway's one error path: a refusal is named by its code and answered with the contract's
 * envelope, the HTTP status equal to its `code` (`codeToStatus`).
 */
export function sendError(res: Response, code: ErrorCode, message: string): void {
  const status = codeToStatus(code);
  res
    .status(status)
    .type("application/json")
    .send(stringifyJson({ code: status, message }));
}

/** Sends a body the ledger produced, byte for byte. */
export function sendRaw(res: Response, status: number, body: string): void {
  res.status(status).type("application/json").send(body);
}
