import { stringifyJson } from "@wallet/contracts/json";
import type { Response } from "express";

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type("application/json").send(stringifyJson(body));
}

/** Errors are `{code, message}` with the HTTP status as `code`. */
export function sendError(res: Response, status: number, message: string): void {
  sendJson(res, status, { code: status, message });
}
