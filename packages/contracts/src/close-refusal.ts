import { z } from "zod";
import { cutToCodePoints, isIdWithin, limits } from "./limits.ts";
import type { JsonProblem } from "./safe-json.ts";
import { actionLabel } from "./wallet-request.ts";

/**
 * Why a CLOSE_ROUND was refused, as a closed set (a metric label, a column): the platform will not
 * resend it, so every refusal is stored and counted, and an SRE applies a corrected close
 * (`POST /v1/rounds/{id}/close`).
 * - bad_id: `provider_tx_id`, `action_id` or `game` missing, empty or too long;
 * - missing_array: `crashGameCashOutCoefficients` or `crashGameBets` absent;
 * - unreadable_array: not a JSON array of numbers, or present twice with different values;
 * - out_of_range: a negative or too large stake or coefficient;
 * - misaligned: the two arrays of different lengths (the contract's own example of a 400);
 * - malformed_body: refused before its schema, in a field the close reads or where no field can be
 *   told: not UTF-8, not JSON, or refused by the strict JSON check (`safe-json.ts`).
 */
export const closeRefusalReasons = [
  "bad_id",
  "missing_array",
  "unreadable_array",
  "out_of_range",
  "misaligned",
  "malformed_body",
] as const;
export type CloseRefusalReason = (typeof closeRefusalReasons)[number];

/** A refusal as the gateway hands it to the ledger, which stores it as given (`jobs.ts`). */
export const closeRefusal = z.object({
  reason: z.enum(closeRefusalReasons),
  message: z.string().min(1).max(limits.refusalMessage.max),
});
export type CloseRefusal = z.infer<typeof closeRefusal>;

/** A body that claims to be a CLOSE_ROUND: its refusal is stored, not just answered. */
export function isCloseRound(body: unknown): boolean {
  return actionLabel(body) === "CLOSE_ROUND";
}

/**
 * The top-level fields a CLOSE_ROUND reads (`close-round.ts`; `currency` is read only to be stored
 * beside it, and one that is not a currency is dropped). A flaw anywhere else does not refuse it:
 * refusing would drop the round's effects for a field the close does not need.
 */
export const closeReadFields: ReadonlySet<string> = new Set([
  "action",
  "action_id",
  "provider_tx_id",
  "game",
  "attributes",
]);

/** For `parseJsonStrict`: the fields a close ignores, when the body is a close. */
export function fieldsACloseIgnores(value: unknown): ((field: string) => boolean) | undefined {
  return isCloseRound(value) ? (field) => !closeReadFields.has(field) : undefined;
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

/** A close refused before its schema, saying what was wrong and where. */
export function malformedClose(problem: JsonProblem, invalidUtf8At?: number): CloseRefusal {
  const where = problem.field === undefined ? "" : ` (under the top-level key "${problem.field}")`;
  const utf8 =
    invalidUtf8At === undefined
      ? ""
      : `; the body is not valid UTF-8 from byte ${invalidUtf8At} on (stored with U+FFFD in place of each invalid sequence)`;
  return {
    reason: "malformed_body",
    message: cutToCodePoints(`${problem.message}${where}${utf8}`, limits.refusalMessage.max),
  };
}

/**
 * The round and idempotency key a refused close names, as far as a lenient reading finds them:
 * JSON.parse's reading of the body, or, for text that is not JSON, the first `"action_id": "…"` and
 * `"provider_tx_id": "…"` written in it. They let the manual close of the round resolve the refusal.
 */
export function closeIdsOf(value: unknown, text: string): { roundId?: string; providerTxId?: string } {
  if (value !== null && typeof value === "object") {
    const { action_id: roundId, provider_tx_id: providerTxId } = value as Record<string, unknown>;
    return {
      ...(typeof roundId === "string" ? { roundId } : {}),
      ...(typeof providerTxId === "string" ? { providerTxId } : {}),
    };
  }
  const roundId = writtenString(text, "action_id");
  const providerTxId = writtenString(text, "provider_tx_id");
  return {
    ...(roundId === undefined ? {} : { roundId }),
    ...(providerTxId === undefined ? {} : { providerTxId }),
  };
}

/**
 * What a refused close keeps as its round and key (`refused_closes`): each only when it is an id
 * within its limit (`limits.ts`), by the same rules the callbacks and the manual close apply. So any
 * refusal stored with a round is one `POST /v1/rounds/{round_id}/close` takes and resolves, and one
 * kept without had no round that any entry point would take.
 */
export function storedCloseIds(ids: { roundId?: string; providerTxId?: string }): {
  roundId: string | null;
  providerTxId: string | null;
} {
  return {
    roundId: isIdWithin(limits.roundId, ids.roundId) ? ids.roundId : null,
    providerTxId: isIdWithin(limits.closeTxId, ids.providerTxId) ? ids.providerTxId : null,
  };
}

/**
 * Steps of the search for the longest id worth finding: the longest close key with every UTF-16 unit
 * written as a `\uXXXX` escape (the pattern takes `\u` in one step, then each hex digit: five).
 * At 300 a round id of 60 emoji written as escapes was not found, and its refusal was stored without
 * its round. Bounded, so the search stays linear.
 */
const writtenIdSteps = limits.closeTxId.max * 2 * 5;

/** The first `"key": "value"` in text that need not be JSON; a bounded value keeps the search linear. */
function writtenString(text: string, key: string): string | undefined {
  const found = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.){0,${writtenIdSteps}}")`).exec(text);
  if (!found?.[1]) return undefined;
  try {
    return JSON.parse(found[1]) as string;
  } catch {
    return undefined;
  }
}
