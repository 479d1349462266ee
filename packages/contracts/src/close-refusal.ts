import type { z } from "zod";
import { actionLabel } from "./wallet-request.ts";

/**
 * Why a CLOSE_ROUND was refused, as a closed set (a metric label, a column): the platform will not
 * resend it, so every refusal is stored and counted, and an SRE applies a corrected close
 * (`POST /v1/rounds/{id}/close`).
 * - bad_id: `provider_tx_id`, `action_id` or `game` missing, empty or too long;
 * - missing_array: `crashGameCashOutCoefficients` or `crashGameBets` absent;
 * - unreadable_array: not a JSON array of numbers, or present twice with different values;
 * - out_of_range: a negative or too large stake or coefficient;
 * - misaligned: the two arrays of different lengths (the contract's own example of a 400).
 */
export const closeRefusalReasons = [
  "bad_id",
  "missing_array",
  "unreadable_array",
  "out_of_range",
  "misaligned",
] as const;
export type CloseRefusalReason = (typeof closeRefusalReasons)[number];

/** A body that claims to be a CLOSE_ROUND: its refusal is stored, not just answered. */
export function isCloseRound(body: unknown): boolean {
  return actionLabel(body) === "CLOSE_ROUND";
}

/** The reason of the first issue of a refused CLOSE_ROUND (`close-round.ts` writes the messages). */
export function closeRefusalReason(error: z.ZodError): CloseRefusalReason {
  const [issue] = error.issues;
  if (issue?.path[0] !== "attributes") return "bad_id";
  const message = issue.message;
  if (message.includes("they must be aligned")) return "misaligned";
  if (/ is required$/.test(message)) return "missing_array";
  if (/must be at most \d|must not be negative|exceeds \d/.test(message)) return "out_of_range";
  return "unreadable_array";
}
