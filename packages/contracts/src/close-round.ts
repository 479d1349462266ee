import { z } from "zod";
import { attributeNames } from "./attributes.ts";
import { coefficientProblem } from "./coefficient.ts";
import { currency, identifier } from "./fields.ts";
import { millisProblem } from "./money.ts";

/** The longest round id (`action_id`) a BET accepts: every such round must be closable. */
export const roundIdMax = 128;
/** Digits of the largest operator id (a positive safe integer, `tenants.ts`). */
const operatorIdDigitsMax = String(Number.MAX_SAFE_INTEGER).length;
/**
 * The longest CLOSE_ROUND `provider_tx_id`: the contract's key `{round_id}-{operator_id}-close-round`
 * for the longest round id and operator id (157). Sized with `roundIdMax`, so no round the BET
 * accepted is refused its close; the id columns that store it are as wide (`ledger/src/schema`).
 */
export const closeRoundTxIdMax = roundIdMax + "-".length + operatorIdDigitsMax + "-close-round".length;

/**
 * A CLOSE_ROUND is the only report of a round's outcome the platform sends, and it never resends a
 * 4xx: a close refused is a round whose loyalty, tournament, reporting and responsible-gaming effects
 * are lost. So it is refused only when it cannot be understood: no idempotency key, round or game,
 * or the two arrays missing, unparsable, out of range or of different lengths. Everything else the
 * body carries (`createDate` or any other attribute, `user_id`, `session_token`, a non-zero `amount`,
 * an unknown currency) is ignored (docs/contract-decisions.md).
 */
export const closeRoundRequest = z.object({
  action: z.literal("CLOSE_ROUND"),
  provider_tx_id: identifier(closeRoundTxIdMax),
  game: identifier(),
  action_id: identifier(roundIdMax),
  attributes: z.array(z.unknown(), { error: "must be an array of {name, value}" }).transform((list, ctx) => {
    const parsed = closeArrays(list);
    if (typeof parsed === "string") {
      ctx.addIssue({ code: "custom", message: parsed });
      return z.NEVER;
    }
    return parsed;
  }),
  // Only stored with the close; a currency that is not one is as good as none.
  currency: currency.optional().catch(undefined),
});
export type CloseRoundRequest = z.infer<typeof closeRoundRequest>;

export interface CloseArrays {
  cashOutCoefficients: number[];
  bets: bigint[];
}

/** The two aligned arrays out of the attributes, or why they cannot be read. */
function closeArrays(list: unknown[]): CloseArrays | string {
  const coefficients = readAttribute(
    list,
    attributeNames.cashOutCoefficients,
    "decimal numbers",
    coefficientProblem,
  );
  const stakes = readAttribute(list, attributeNames.bets, "integer millis", millisProblem);
  if (typeof coefficients === "string" || typeof stakes === "string")
    return [coefficients, stakes].filter((read) => typeof read === "string").join("; ");
  if (coefficients.length !== stakes.length) {
    return `${attributeNames.cashOutCoefficients} has ${coefficients.length} items but ${attributeNames.bets} has ${stakes.length}; they must be aligned`;
  }
  // Within the range, a coefficient has at most 15 significant digits: its JS number is exact enough
  // that toFixed(8) gives the decimal back, so the ledger keeps numbers (coefficient.ts).
  return {
    cashOutCoefficients: coefficients as number[],
    bets: stakes.map((stake) => BigInt(stake as number)),
  };
}

/** The array in the attribute called `name` (it may appear twice only with the same value). */
function readAttribute(
  list: unknown[],
  name: string,
  what: string,
  problemOf: (item: unknown, written: () => string) => string | undefined,
): unknown[] | string {
  const values = new Set<unknown>();
  for (const entry of list) {
    if (entry !== null && typeof entry === "object" && (entry as { name?: unknown }).name === name)
      values.add((entry as { value?: unknown }).value);
  }
  const [value] = values;
  if (values.size === 0) return `attribute ${name} is required`;
  if (values.size > 1) return `attribute ${name} appears twice with different values`;
  if (typeof value !== "string") return `attribute ${name} must be a string holding a JSON array`;
  const read = readArray(value, what, problemOf);
  return typeof read === "string" ? `attribute ${name} ${read}` : read;
}

/**
 * A JSON array carried as a string, each item checked with its source text at hand, so a
 * coefficient is judged as the exact decimal the platform wrote, never through a rounded double.
 * Plain loops, no schema per item: a close of 100,000 bets is checked in a few milliseconds.
 */
function readArray(
  text: string,
  what: string,
  problemOf: (item: unknown, written: () => string) => string | undefined,
): unknown[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `must be a JSON-encoded array of ${what}`;
  }
  if (!Array.isArray(parsed)) return `must be a JSON-encoded array of ${what}`;
  const describe = (index: number, problem: string) =>
    `must be a JSON-encoded array of ${what} (item ${index}: ${problem})`;
  const other = parsed.findIndex((item) => typeof item !== "number");
  if (other >= 0) return describe(other, problemOf(parsed[other], () => "") ?? "not a number");
  // Only numbers are left, so the number tokens of the text are the items, in order; found only
  // when an item needs its text (a coefficient at an edge of its range).
  let written: string[] | undefined;
  const writtenAt = (index: number) => () => {
    written ??= text.match(numberToken) ?? [];
    return written[index] ?? "";
  };
  for (let index = 0; index < parsed.length; index++) {
    const problem = problemOf(parsed[index], writtenAt(index));
    if (problem) return describe(index, problem);
  }
  return parsed;
}

const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
