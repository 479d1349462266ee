import { callbackCatalog } from "./callback-catalog.ts";
import {
  type CloseRefusal,
  type CloseRefusalReason,
  closeIdsOf,
  closeRefusalReason,
  fieldsACloseIgnores,
  isCloseRound,
  malformedClose,
} from "./close-refusal.ts";
import type { CallbackOp } from "./jobs.ts";
import { type JsonProblem, parseJsonBytesStrict } from "./safe-json.ts";
import { describeIssues } from "./validation.ts";

const closeRoundBytes = Buffer.from('"CLOSE_ROUND"');

/** The 413 of a body past the ordinary limit that is no CLOSE_ROUND (the gateway's and the close intake's). */
export const tooLargeMessage = (bodyLimitBytes: number) =>
  `body larger than ${bodyLimitBytes} bytes (only a CLOSE_ROUND may be larger)`;

/** What a verified body comes to: a 400 or a 413 at once, or a call for the ledger. */
export type CallbackReading =
  | { kind: "refused"; message: string }
  | { kind: "too-large" }
  | {
      kind: "call";
      /** What the ledger parses and stores: the body as decoded (U+FFFD for bytes that are not UTF-8). */
      text: string;
      /** What the call is routed by: the parsed body, or what a lenient reading of a close found. */
      body: Record<string, unknown>;
      /** A close refused before its schema: the ledger stores this refusal as given. */
      closeRefusal?: CloseRefusal;
      /** Why the ledger will refuse this close (`closeRefusal`'s reason, or its schema's): the metric's label. */
      refusalReason?: CloseRefusalReason;
      /** A flaw let through because it lies in a field the close does not read. */
      ignored?: JsonProblem;
    };

/**
 * UTF-8, strict JSON, the endpoint's schema. A CLOSE_ROUND is the only report of its round and the
 * platform never resends a 4xx, so a close is refused only for what it reads: a flaw in any other
 * field lets it through, and a close refused anyway (by its schema, or before it, as long as it is
 * recognisably a close) goes to the ledger to be stored before its 400. Anything else refused here
 * is a 400 that reaches no worker. Past `bodyLimitBytes` only a close is read on.
 */
export function readCallback(op: CallbackOp, raw: Buffer, bodyLimitBytes: number): CallbackReading {
  const deposit = op === "deposit";
  const json = parseJsonBytesStrict(raw, deposit ? { ignoredFields: fieldsACloseIgnores } : {});
  if (!json.ok) {
    const close =
      deposit && (json.lenient ? isCloseRound(json.lenient.value) : raw.includes(closeRoundBytes));
    if (!close)
      return {
        kind: "refused",
        message: json.invalidUtf8At === undefined ? json.message : "body is not valid UTF-8",
      };
    const refusal = malformedClose(json, json.invalidUtf8At);
    // Not JSON at all: routed by the round its text names, if it names one.
    const body = json.lenient
      ? (json.lenient.value as Record<string, unknown>)
      : { action: "CLOSE_ROUND", action_id: closeIdsOf(undefined, json.text).roundId };
    return { kind: "call", text: json.text, body, closeRefusal: refusal, refusalReason: refusal.reason };
  }
  const close = deposit && isCloseRound(json.value);
  if (raw.length > bodyLimitBytes && !close) return { kind: "too-large" };
  const checked = callbackCatalog[op].request.safeParse(json.value);
  if (!checked.success && !close) return { kind: "refused", message: describeIssues(checked.error) };
  return {
    kind: "call",
    text: json.text,
    body: json.value as Record<string, unknown>,
    ...(checked.success ? {} : { refusalReason: closeRefusalReason(checked.error) }),
    ...(json.ignored ? { ignored: json.ignored } : {}),
  };
}
