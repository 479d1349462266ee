import {
  type CloseRefusal,
  closeIdsOf,
  closeReadFields,
  closeRefusalReason,
  isCloseRound,
  malformedClose,
} from "../close-refusal.ts";
import { type StreamedCloseArrays, streamedCloseRound } from "../close-round.ts";
import { limits } from "../limits.ts";
import { describeIssues } from "../validation.ts";
import { CloseSkeleton } from "./close-skeleton.ts";
import { StrictJsonStream } from "./json-stream.ts";
import { Utf8Stream } from "./utf8-stream.ts";

/**
 * The largest CLOSE_ROUND read whole (`callback-reading.ts`) and carried in its ledger job: a larger
 * one goes to the close intake and is read here, a piece at a time. Fixed, not the configurable
 * ordinary limit: what a job, a row or an event-loop turn holds must not grow with a setting.
 */
export const closeInlineMaxBytes = limits.closeInline.max;
/**
 * Characters of the decoded body kept from its start: where the round of a body that is not JSON is
 * looked for (`closeIdsOf`), and a refused body's preview. A body read whole is no longer than this,
 * so both readers look at the same text.
 */
export const closeHeadChars = limits.refusedBodyPreview.max;

const DECODE_BYTES = 32 * 1024;

/** What a CLOSE_ROUND sent past the ordinary body limit comes to, read as a stream. */
export type StreamedCloseVerdict =
  /** Valid JSON but no close: past the ordinary limit, a 413. */
  | { kind: "too-large" }
  /** Refused before its schema and not recognisably a close: a 400, nothing stored. */
  | { kind: "refused"; message: string }
  /** A close refused: stored with its body, then answered 400. */
  | { kind: "refused-close"; refusal: CloseRefusal; roundId?: string; providerTxId?: string; head: string }
  | {
      kind: "close";
      roundId: string;
      providerTxId: string;
      game: string;
      currency?: string;
      arrays: StreamedCloseArrays;
    };

/**
 * A body past the ordinary limit that names a CLOSE_ROUND, read a piece at a time and judged exactly
 * as the gateway and the ledger judge a smaller one (`callback-reading.ts`, `calls/plan.ts`,
 * `verbs/refused-closes.ts`): UTF-8, strict JSON, the close's schema, the same verdicts and
 * messages (`close-reader.test.ts` holds the two readers to each other). The text is never held:
 * what the reader keeps is bounded by the read fields and the two arrays' written-back text.
 */
export class CloseReader {
  private readonly utf8 = new Utf8Stream();
  private readonly skeleton = new CloseSkeleton();
  private readonly json = new StrictJsonStream(this.skeleton, (field) => closeReadFields.has(field));
  private head = "";
  /** The head holds all it will: the next text would pass `closeHeadChars`. */
  private headFull = false;
  /** Bytes read so far. */
  bytes = 0;

  write(piece: Uint8Array): void {
    this.bytes += piece.length;
    // Decoded 32 KiB at a time: strings of at most 64 KiB stay in V8's young generation and go at
    // the next scavenge; a 256 KiB run of bytes that are not UTF-8 decodes to a 512 KiB string,
    // which V8 keeps in its large-object space until a full collection (an 8 MiB close: +11 MiB of
    // resident memory against +2).
    for (let at = 0; at < piece.length; at += DECODE_BYTES)
      this.text(this.utf8.write(piece.subarray(at, at + DECODE_BYTES)));
  }

  finish(): StreamedCloseVerdict {
    this.text(this.utf8.end());
    const json = this.json.end();
    const invalidAt = this.utf8.invalidAt;
    if (!json) {
      // Not JSON: a close only by the bytes that name one (`"CLOSE_ROUND"`), routed by the round its text names.
      return this.refusedClose(malformedClose({ message: "body is not valid JSON" }, invalidAt), undefined);
    }
    const value = this.skeleton.value();
    const close = isCloseRound(value);
    const strict = this.json.problems?.outcome(invalidAt !== undefined, close) ?? {};
    if (strict.refused) {
      if (!close)
        return {
          kind: "refused",
          message: invalidAt === undefined ? strict.refused.message : "body is not valid UTF-8",
        };
      return this.refusedClose(malformedClose(strict.refused, invalidAt), value);
    }
    if (!close) return { kind: "too-large" };
    const checked = streamedCloseRound.safeParse(value);
    if (!checked.success)
      return this.refusedClose(
        { reason: closeRefusalReason(checked.error), message: describeIssues(checked.error) },
        value,
      );
    const { action_id, provider_tx_id, game, currency, attributes } = checked.data;
    return {
      kind: "close",
      roundId: action_id,
      providerTxId: provider_tx_id,
      game,
      ...(currency === undefined ? {} : { currency }),
      arrays: attributes,
    };
  }

  private text(decoded: string): void {
    if (!this.headFull) {
      const room = closeHeadChars - this.head.length;
      let kept = decoded.slice(0, room);
      // Never a character cut in two: a lone surrogate at the end would be stored as U+FFFD.
      if (decoded.length > room && /[\ud800-\udbff]$/.test(kept)) kept = kept.slice(0, -1);
      this.head += kept;
      this.headFull = decoded.length >= room;
    }
    this.json.write(decoded);
  }

  private refusedClose(refusal: CloseRefusal, value: unknown): StreamedCloseVerdict {
    const ids = closeIdsOf(value, this.head);
    return { kind: "refused-close", refusal, ...ids, head: this.head };
  }
}
