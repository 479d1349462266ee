import { z } from "zod";
import { limits } from "./limits.ts";

/**
 * Money on the wire: a JSON number holding a non-negative integer of millis within the safe-integer
 * range (JSON.parse has already rounded anything beyond 2^53, so such values cannot be trusted, and
 * 1e400 to Infinity). `1000.0` and `1e3` are the integer 1000 once parsed and are accepted; `-0` is not.
 * Converted to bigint at the edge; nothing past this schema ever sees a JS number for money.
 */
export const millis = z
  .unknown()
  // What the check below takes, for a JSON Schema of the input (`z.unknown()` alone would say "anything").
  .meta({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "integer millis" })
  .superRefine((value, ctx) => {
    const problem = millisProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => BigInt(value as number));

export function millisProblem(value: unknown): string | undefined {
  if (value === undefined) return "is required";
  if (typeof value !== "number") {
    return `must be a JSON integer of millis, got ${value === null ? "null" : typeof value}`;
  }
  if (Number.isNaN(value)) return "must be an integer number of millis, got NaN";
  if (value < 0) return `must not be negative, got ${value}`;
  // A minus sign on an amount is a bug in the sender, even on zero (and `${-0}` would print "0").
  if (Object.is(value, -0)) return "must not be negative, got -0";
  // Beyond 2^53 JSON.parse has already rounded the number (1e400 even to Infinity): its digits are lost.
  if (value > Number.MAX_SAFE_INTEGER)
    return `exceeds ${Number.MAX_SAFE_INTEGER}, the largest exact JSON integer`;
  if (!Number.isInteger(value)) return `must be an integer number of millis, got ${value}`;
  return undefined;
}

/** Millis that must be exactly zero (FREE_BET, CLOSE_ROUND). */
export const zeroMillis = millis
  .refine((amount) => amount === 0n, { message: "must be 0 for this action" })
  .meta({ const: 0, description: "integer millis: 0 for this action" });

export type Millis = bigint;

/**
 * The largest balance a wallet keeps: 2^53 − 1 millis (about 9 trillion units), the largest integer
 * a JSON client reads exactly. A credit that would pass it is refused (400) and moves nothing: past
 * it `/balance` would answer a number the platform cannot read, and further on MySQL's BIGINT
 * overflows, which would be a 503 on every retry (a poison message).
 */
export const maxBalanceMillis = BigInt(limits.balance.max);

/** Why crediting `amount` to `balance` is refused, or undefined when it fits. */
export function balanceRoomProblem(balance: bigint, amount: bigint): string | undefined {
  if (balance + amount <= maxBalanceMillis) return undefined;
  return `a credit of ${amount} would bring the balance to ${balance + amount} millis, above ${maxBalanceMillis}, the largest balance the wallet keeps`;
}
