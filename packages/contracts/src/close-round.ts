import { z } from "zod";
import { attributeNames } from "./attributes.ts";
import { type ItemCheck, StreamedArrayText } from "./close-stream/array-text.ts";
import { coefficientProblem } from "./coefficient.ts";
import { currency, identifier } from "./fields.ts";
import { limits } from "./limits.ts";
import { millisProblem } from "./money.ts";

/** The longest round id (`action_id`) a BET accepts (`limits.ts`): every such round must be closable. */
export const roundIdMax = limits.roundId.max;
/** The longest CLOSE_ROUND `provider_tx_id` (`limits.ts`): the contract's key for the longest round. */
export const closeRoundTxIdMax = limits.closeTxId.max;

/** The fields of a close other than its arrays, in the order their issues are reported. */
const closeRoundFields = {
  action: z.literal("CLOSE_ROUND"),
  provider_tx_id: identifier(limits.closeTxId),
  game: identifier(limits.game),
  action_id: identifier(limits.roundId),
};

/** A close's schema, its two arrays read by `arrays` (a whole body's text, or a streamed one's). */
function closeRoundSchema<Arrays>(arrays: (list: unknown[]) => Arrays | string) {
  return z.object({
    ...closeRoundFields,
    attributes: z
      .array(z.unknown(), { error: "must be an array of {name, value}" })
      .transform((list, ctx) => {
        const parsed = arrays(list);
        if (typeof parsed === "string") {
          ctx.addIssue({ code: "custom", message: parsed });
          return z.NEVER;
        }
        return parsed;
      }),
    // Only stored with the close; a currency that is not one is as good as none.
    currency: currency.optional().catch(undefined),
  });
}

export interface CloseArrays {
  cashOutCoefficients: number[];
  bets: bigint[];
}

/** A streamed close's two arrays: read, checked and written back as JSON text (`close-stream/`). */
export interface StreamedCloseArrays {
  cashOutCoefficients: StreamedArrayText;
  bets: StreamedArrayText;
  count: number;
}

/** The two aligned arrays out of the attributes, or why they cannot be read. */
function closeArrays(list: unknown[]): CloseArrays | string {
  const read = alignedArrays(list, (value, what, problemOf) =>
    typeof value === "string" ? readArray(value, what, problemOf) : undefined,
  );
  if (typeof read === "string") return read;
  // Within the range, a coefficient has at most 15 significant digits: its JS number is exact enough
  // that toFixed(8) gives the decimal back, so the ledger keeps numbers (coefficient.ts).
  return {
    cashOutCoefficients: read.coefficients as number[],
    bets: read.stakes.map((stake) => BigInt(stake as number)),
  };
}

/** The same rules for a close read as a stream: each attribute value is a `StreamedArrayText`. */
function streamedArrays(list: unknown[]): StreamedCloseArrays | string {
  const read = alignedArrays(list, (value, what, problemOf) =>
    value instanceof StreamedArrayText ? readStreamedArray(value, what, problemOf) : undefined,
  );
  if (typeof read === "string") return read;
  return { cashOutCoefficients: read.coefficients, bets: read.stakes, count: read.stakes.count };
}

/** How one attribute value is read as an array: undefined when it is no string. */
type ArrayReader<A extends { length: number } | { count: number }> = (
  value: unknown,
  what: string,
  problemOf: ItemCheck,
) => A | string | undefined;

const lengthOf = (array: { length: number } | { count: number }) =>
  "count" in array ? array.count : array.length;

function alignedArrays<A extends { length: number } | { count: number }>(
  list: unknown[],
  readValue: ArrayReader<A>,
): { coefficients: A; stakes: A } | string {
  const coefficients = readAttribute(
    list,
    attributeNames.cashOutCoefficients,
    "decimal numbers",
    coefficientProblem,
    readValue,
  );
  const stakes = readAttribute(list, attributeNames.bets, "integer millis", millisProblem, readValue);
  if (typeof coefficients === "string" || typeof stakes === "string")
    return [coefficients, stakes].filter((read) => typeof read === "string").join("; ");
  if (lengthOf(coefficients) !== lengthOf(stakes)) {
    return `${attributeNames.cashOutCoefficients} has ${lengthOf(coefficients)} items but ${attributeNames.bets} has ${lengthOf(stakes)}; they must be aligned`;
  }
  return { coefficients, stakes };
}

/** The array in the attribute called `name` (it may appear twice only with the same value). */
function readAttribute<A extends { length: number } | { count: number }>(
  list: unknown[],
  name: string,
  what: string,
  problemOf: ItemCheck,
  readValue: ArrayReader<A>,
): A | string {
  const values = new Set<unknown>();
  for (const entry of list) {
    if (entry !== null && typeof entry === "object" && (entry as { name?: unknown }).name === name)
      values.add((entry as { value?: unknown }).value);
  }
  const [value] = values;
  if (values.size === 0) return `attribute ${name} is required`;
  if (values.size > 1) return `attribute ${name} appears twice with different values`;
  const read = readValue(value, what, problemOf);
  if (read === undefined) return `attribute ${name} must be a string holding a JSON array`;
  return typeof read === "string" ? `attribute ${name} ${read}` : read;
}

const arrayOf = (what: string) => `must be a JSON-encoded array of ${what}`;
const describeItem = (what: string, index: number, problem: string) =>
  `${arrayOf(what)} (item ${index}: ${problem})`;

/**
 * A JSON array carried as a string, each item checked with its source text at hand, so a
 * coefficient is judged as the exact decimal the platform wrote, never through a rounded double.
 * Plain loops, no schema per item: a close of 100,000 bets is checked in a few milliseconds.
 */
function readArray(text: string, what: string, problemOf: ItemCheck): unknown[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return arrayOf(what);
  }
  if (!Array.isArray(parsed)) return arrayOf(what);
  const other = parsed.findIndex((item) => typeof item !== "number");
  if (other >= 0) return describeItem(what, other, problemOf(parsed[other], () => "") ?? "not a number");
  // Only numbers are left, so the number tokens of the text are the items, in order; found only
  // when an item needs its text (a coefficient at an edge of its range).
  let written: string[] | undefined;
  const writtenAt = (index: number) => () => {
    written ??= text.match(numberToken) ?? [];
    return written[index] ?? "";
  };
  for (let index = 0; index < parsed.length; index++) {
    const problem = problemOf(parsed[index], writtenAt(index));
    if (problem) return describeItem(what, index, problem);
  }
  return parsed;
}

/** `readArray`'s findings for a streamed value: the same messages, from what its stream saw. */
function readStreamedArray(
  text: StreamedArrayText,
  what: string,
  problemOf: ItemCheck,
): StreamedArrayText | string {
  if (!text.isArray) return arrayOf(what);
  if (text.nonNumber)
    return describeItem(
      what,
      text.nonNumber.index,
      problemOf(text.nonNumber.sample, () => "") ?? "not a number",
    );
  const first = text.firstProblem(problemOf);
  return first ? describeItem(what, first.index, first.problem) : text;
}

/** The checks a streamed close's array items get, both (its attribute name may come after its value). */
export const closeItemChecks: readonly ItemCheck[] = [coefficientProblem, millisProblem];

/**
 * A CLOSE_ROUND is the only report of a round's outcome the platform sends, and it never resends a
 * 4xx: a close refused is a round whose loyalty, tournament, reporting and responsible-gaming effects
 * are lost. So it is refused only when it cannot be understood: no idempotency key, round or game,
 * or the two arrays missing, unparsable, out of range or of different lengths. Everything else the
 * body carries (`createDate` or any other attribute, `user_id`, `session_token`, a non-zero `amount`,
 * an unknown currency) is ignored (docs/contract-decisions.md).
 */
export const closeRoundRequest = closeRoundSchema(closeArrays);
export type CloseRoundRequest = z.infer<typeof closeRoundRequest>;
/** A CLOSE_ROUND read as a stream (`close-stream/close-reader.ts`), judged by the same rules. */
export const streamedCloseRound = closeRoundSchema(streamedArrays);

const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
