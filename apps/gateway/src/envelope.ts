import { stringifyJson } from "@wallet/contracts/json";
import type { Response } from "express";

/** Answers the contract's envelope with the HTTP status equal to its `code`. */
export function sendEnvelope(
  res: Response,
  status: number,
  message: string,
  data?: Record<string, unknown>,
): void {
  res
    .status(status)
    .type("application/json")
    .send(stringifyJson({ code: status, message, data }));
}

/** Sends a body the ledger produced, byte for byte. */
export function sendRaw(res: Response, status: number, body: string): void {
  res.status(status).type("application/json").send(body);
}
