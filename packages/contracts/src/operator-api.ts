import { z } from "zod";
import { currency, identifier, text, textOfBytes } from "./fields.ts";
import { portalModes } from "./game.ts";
import { type Limit, limits } from "./limits.ts";
import { millis } from "./money.ts";

/**
 * Millis of the operator's own API: an integer JSON number from `min`, within the safe-integer range
 * (`limits.ts`), refused with one reason. zod's `int` refuses an integer past 2^53 − 1 as no
 * integer, so 2^53 was "must be an integer number of millis; must be at most …".
 */
const millisFrom = (min: number, max: number, pastRange: string) =>
  z
    .number({ error: "must be an integer number of millis" })
    // What the check below takes, for the JSON Schema of the OpenAPI document (a transform alone
    // would document "any number").
    .meta({ type: "integer", minimum: min, maximum: max })
    .transform((value, ctx) => {
      const problem = !Number.isInteger(value)
        ? "must be an integer number of millis"
        : !Number.isSafeInteger(value) || value > max || (min < 0 && value < min)
          ? pastRange
          : value < min
            ? `must be at least ${min}`
            : undefined;
      if (!problem) return BigInt(value);
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    });

/** Signed millis for the operator's own API (adjustments may debit), within the safe-integer range. */
export const signedMillis = millisFrom(
  -limits.adjustmentAmount.max,
  limits.adjustmentAmount.max,
  `must be within ±${limits.adjustmentAmount.max}`,
);
const millisAtLeast = (min: number) =>
  millisFrom(min, limits.millis.max, `must be at most ${limits.millis.max}`);

/**
 * An operator id in a request body: every route with a JSON body takes one (`?operatorId=` is the
 * other way to name the operator; both must agree).
 */
export const operatorIdField = z
  .number({ error: "must be a positive integer" })
  .int({ error: "must be a positive integer" })
  .positive({ error: "must be a positive integer" });

export const createPlayerRequest = z
  .object({
    user_id: identifier(limits.userId).optional(),
    username: text(limits.username),
    currency,
    balance: millisAtLeast(0).optional(),
    maxbet: millisAtLeast(1),
    minbet: millisAtLeast(0).optional(),
    maxwin: millisAtLeast(1).optional(),
    operatorId: operatorIdField.optional(),
  })
  .refine((player) => player.minbet === undefined || player.minbet <= player.maxbet, {
    message: "must not be above maxbet",
    path: ["minbet"],
    // Only once both are amounts: a minbet past the limit is refused for that alone.
    when: (payload) => payload.issues.length === 0,
  });

export const launchRequest = z.object({
  game: identifier(limits.game),
  currency,
  platform: identifier(limits.platform),
  portalMode: z.enum(portalModes),
  returnUrl: textOfBytes(limits.launchReturnUrl).optional(),
  language: text(limits.launchLanguage).optional(),
});

/** A cashier credit (positive) or debit (negative), idempotent on `reference`. */
export const adjustmentRequest = z.object({
  user_id: identifier(limits.userId),
  amount: signedMillis.refine((amount) => amount !== 0n, { message: "must not be 0" }),
  reason: text(limits.adjustmentReason),
  reference: identifier(limits.adjustmentReference),
});
export type AdjustmentRequest = z.infer<typeof adjustmentRequest>;

/** `data` of an applied adjustment, as the ledger answers it. */
export const adjustmentResult = z.object({
  user_id: z.string(),
  operator_tx_id: z.string(),
  reference: z.string(),
  amount: signedMillis,
  reason: z.string(),
  new_balance: millis,
  currency: z.string(),
});

export const freeBetGrantRequest = z.object({
  count: z
    .number()
    .int()
    .min(limits.freeBetCount.min)
    .max(limits.freeBetCount.max, `must be at most ${limits.freeBetCount.max}`),
  game: identifier(limits.game).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});

/** A page size within its limit (`limits.ts`), from a query string. */
export const pageLimit = (limit: Limit) =>
  z.coerce
    .number({ error: `must be an integer from ${limit.min} to ${limit.max}` })
    .int({ error: `must be an integer from ${limit.min} to ${limit.max}` })
    .min(limit.min, { error: `must be an integer from ${limit.min} to ${limit.max}` })
    .max(limit.max, { error: `must be an integer from ${limit.min} to ${limit.max}` })
    .default(50);

export const transactionsQuery = z.object({
  limit: pageLimit(limits.transactionsPage),
  /** Opaque: the `next_cursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,15}\.\d{1,15}$/, "must be a next_cursor from a previous page")
    .optional(),
});

/** One of a manual close's arrays: as the platform carries it (a JSON string) or as a JSON array. */
const closeArray = z
  .union([z.string(), z.array(z.unknown())], { error: "must be an array, or a JSON array in a string" })
  .transform((value, ctx) => {
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an array of numbers" }); // nested past the stack
      return z.NEVER;
    }
  });

/**
 * `POST /v1/rounds/{round_id}/close`: the CLOSE_ROUND an SRE applies for a round whose platform
 * close was refused (`GET /v1/refused-closes`), with the two arrays corrected. The game defaults to
 * the round's own.
 */
export const manualCloseRequest = z.object({
  crashGameCashOutCoefficients: closeArray,
  crashGameBets: closeArray,
  game: identifier(limits.game).optional(),
  /** Why, for the audit trail. */
  note: text(limits.manualCloseNote).optional(),
});

export const refusedClosesQuery = z.object({
  include_resolved: z.enum(["true", "false"]).default("false"),
  limit: pageLimit(limits.refusedClosesPage),
});
