import { isUtf8 } from "node:buffer";
import { jsonDepthMax, jsonObjectKeysMax, tooDeep, tooManyKeys } from "./json-limits.ts";

/**
 * JSON.parse for untrusted bodies. Beyond syntax it refuses what JSON.parse silently accepts:
 * - a key repeated in one object (which value did the signer mean?);
 * - `__proto__`, `constructor` and `prototype` keys (prototype pollution downstream);
 * - a `\uXXXX` escape inside an object key: keys are fixed ASCII names, so an escaped key
 *   (`"\u005f_proto__"`, `"\u0061mount"`) is only ever an evasion;
 * - a `\uXXXX` escape of an ASCII character or a control character (U+0000 to U+009F) in any
 *   string: `"\u0042ET"` is "BET" to the wallet but not to a filter reading bytes, and `\u0000`
 *   ends a string in C code. Escapes of other characters (`\u00e9`, a surrogate pair
 *   `\ud83d\ude00`) are accepted, since some platforms' JSON writers escape all non-ASCII;
 * - strings that are not well-formed UTF-16 (lone surrogates, escaped or not), which no database
 *   column stores faithfully;
 * - with `invalidUtf8`, a U+FFFD in a string: the decoder's stand-in for bytes it could not read.
 * - a body nested deeper than `jsonDepthMax`, or with an object of more than `jsonObjectKeysMax`
 *   keys (`json-limits.ts`): refused whatever field it lies in.
 * Each problem is located: the top-level key of the root object it lies under. A reader that
 * ignores some top-level fields (a CLOSE_ROUND reads five) can let problems that lie only there
 * through (`ignoredFields`), instead of refusing a body for a field it never reads.
 * The checks are one iterative pass over the text, so no nesting depth can overflow the stack.
 */
export interface JsonProblem {
  message: string;
  /**
   * The top-level key of the root object the problem lies under (for a problem in that key itself,
   * repeated, forbidden or escaped, the key as JSON.parse reads it). Absent when the root is not an object.
   */
  field?: string;
}

export interface StrictJsonOptions {
  /**
   * The text was decoded (without `fatal`) from bytes that are not valid UTF-8: a U+FFFD in a
   * string may be the decoder's replacement of bytes it could not read, so each one is a problem.
   */
  invalidUtf8?: boolean;
  /**
   * Given JSON.parse's reading of the text, the top-level fields its reader ignores: problems that
   * lie only under them do not refuse it (the first is reported as `ignored`). Undefined: none.
   */
  ignoredFields?: (value: unknown) => ((field: string) => boolean) | undefined;
}

export type JsonParseResult =
  | { ok: true; value: unknown; ignored?: JsonProblem }
  | (JsonProblem & {
      ok: false;
      /** JSON.parse's reading, when the text is JSON at all: to tell what was refused, never to act on. */
      lenient?: { value: unknown };
    });

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** `\uXXXX` escapes up to here stand for ASCII (U+0000–U+007F) or C1 controls (U+0080–U+009F). */
const LAST_REFUSED_ESCAPE = 0x9f;
const LONE_SURROGATE = "a string holds a lone UTF-16 surrogate";
const INVALID_UTF8 = "a string holds bytes that are not valid UTF-8";
const NOT_JSON = "body is not valid JSON";
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
const REPLACEMENT = 0xfffd;

export function parseJsonStrict(text: string, options: StrictJsonOptions = {}): JsonParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: NOT_JSON };
  }
  const scanned = scan(text, {
    // Unescaped lone surrogates can only come from the caller's string itself: looked for only then.
    rawSurrogates: !text.isWellFormed(),
    replacements: options.invalidUtf8 === true,
    ignores: options.ignoredFields?.(value),
  });
  if (scanned.refused) return { ok: false, ...scanned.refused, lenient: { value } };
  return scanned.ignored ? { ok: true, value, ignored: scanned.ignored } : { ok: true, value };
}

const lossyUtf8 = new TextDecoder("utf-8");

/**
 * `parseJsonStrict` of raw bytes. They are decoded without `fatal`, so that bytes that are not valid
 * UTF-8 are a problem located like any other (a U+FFFD where they stood) rather than the end of
 * reading: `text` is what was decoded, `invalidUtf8At` the byte offset of the first invalid sequence.
 */
export function parseJsonBytesStrict(
  bytes: Uint8Array,
  options: Pick<StrictJsonOptions, "ignoredFields"> = {},
): JsonParseResult & { text: string; invalidUtf8At?: number } {
  const text = lossyUtf8.decode(bytes);
  // Every invalid sequence decodes to U+FFFD: without one, the bytes were valid (the common case).
  if (!text.includes("\ufffd") || isUtf8(bytes)) return { ...parseJsonStrict(text, options), text };
  const invalidUtf8At = firstInvalidUtf8(bytes, text);
  return { ...parseJsonStrict(text, { ...options, invalidUtf8: true }), text, invalidUtf8At };
}

/**
 * The byte offset of the first sequence the decoder replaced. Up to it every character re-encodes
 * to exactly the bytes it came from, so offsets follow the text; a U+FFFD written as such (EF BF BD)
 * is skipped.
 */
function firstInvalidUtf8(bytes: Uint8Array, text: string): number {
  // The decoder drops a leading byte order mark.
  let byte = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let from = 0;
  for (let at = text.indexOf("\ufffd"); at >= 0; at = text.indexOf("\ufffd", from)) {
    byte += Buffer.byteLength(text.slice(from, at));
    if (bytes[byte] !== 0xef || bytes[byte + 1] !== 0xbf || bytes[byte + 2] !== 0xbd) return byte;
    byte += 3;
    from = at + 1;
  }
  return byte;
}

interface ScanChecks {
  rawSurrogates: boolean;
  replacements: boolean;
  ignores: ((field: string) => boolean) | undefined;
}

/** Walks the (already valid) JSON text once, tracking the keys of each open object. */
function scan(text: string, checks: ScanChecks): { refused?: JsonProblem; ignored?: JsonProblem } {
  // One entry per open bracket: the keys an object has had so far, or null for an array.
  const open: Array<Set<string> | null> = [];
  // The root object's key whose value is being read: where a problem lies.
  let field: string | undefined;
  let ignored: JsonProblem | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{" || char === "[") {
      if (open.length >= jsonDepthMax) return { refused: { message: tooDeep }, ignored };
      open.push(char === "{" ? new Set() : null);
    } else if (char === "}" || char === "]") open.pop();
    else if (char === '"') {
      const token = readString(text, i, checks);
      const keys = open.at(-1);
      let problem = token.problem;
      if (keys && isFollowedByColon(text, token.end + 1)) {
        const key = JSON.parse(text.slice(i, token.end + 1)) as string;
        if (open.length === 1) field = key;
        problem = keyProblem(key, token, keys);
        if (keys.size > jsonObjectKeysMax) return { refused: { message: tooManyKeys }, ignored };
      }
      i = token.end;
      if (!problem) continue;
      // Inside the root object every string comes after (or is) one of its keys: `field` is set.
      const at = open[0] ? field : undefined;
      const located: JsonProblem = at === undefined ? { message: problem } : { message: problem, field: at };
      if (at === undefined || !checks.ignores?.(at)) return { refused: located, ignored };
      ignored ??= located;
    }
  }
  return { ignored };
}

interface StringToken {
  /** Index of the closing quote. */
  end: number;
  /** The first `\uXXXX` escape in the string, as written. */
  firstEscape?: string;
  /** Why the string is refused wherever it stands (an escape of U+0000–U+009F, a lone surrogate). */
  problem?: string;
}

/** Reads the string starting at the quote at `start`, judging each `\uXXXX` escape on the way. */
function readString(text: string, start: number, checks: ScanChecks): StringToken {
  const token: StringToken = { end: text.length };
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      token.end = i;
      return token;
    }
    if (code !== BACKSLASH) {
      // Below U+D800 (nearly every character) there is nothing more to judge.
      if (code < 0xd800 || token.problem) continue;
      if (code === REPLACEMENT) {
        if (checks.replacements) token.problem = INVALID_UTF8;
      } else if (checks.rawSurrogates && isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
        i += 1;
      } else if (checks.rawSurrogates && (isHighSurrogate(code) || isLowSurrogate(code))) {
        token.problem = LONE_SURROGATE;
      }
      continue;
    }
    i += 1; // the escaped character: `\"` does not end the string, `\\u` is no escape
    if (text.charCodeAt(i) !== LETTER_U) continue;
    const written = text.slice(i - 1, i + 5);
    const escaped = Number.parseInt(written.slice(2), 16);
    i += 4;
    token.firstEscape ??= written;
    if (token.problem) continue;
    if (escaped <= LAST_REFUSED_ESCAPE) {
      token.problem = `string escape ${written} is refused: \\u escapes may only encode non-ASCII characters from U+00A0 on`;
    } else if (isHighSurrogate(escaped)) {
      // Well-formed only as a pair: a low surrogate escaped right after it, consumed here.
      const next = text.slice(i + 1, i + 7);
      if (next.startsWith("\\u") && isLowSurrogate(Number.parseInt(next.slice(2), 16))) i += 6;
      else token.problem = LONE_SURROGATE;
    } else if (isLowSurrogate(escaped)) {
      token.problem = LONE_SURROGATE;
    }
  }
  return token;
}

/** Why a key is refused, if it is; every key is remembered, so a later repeat of it is found. */
function keyProblem(key: string, token: StringToken, keys: Set<string>): string | undefined {
  const repeated = keys.has(key);
  keys.add(key);
  if (token.firstEscape)
    return `an object key holds the escape ${token.firstEscape}: keys must be plain ASCII names, not escaped`;
  if (FORBIDDEN_KEYS.has(key)) return `key "${key}" is not allowed`;
  if (repeated) return `key "${key}" appears twice in one object`;
  return token.problem;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function isFollowedByColon(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === ":") return true;
    if (char !== " " && char !== "\t" && char !== "\n" && char !== "\r") return false;
  }
  return false;
}
