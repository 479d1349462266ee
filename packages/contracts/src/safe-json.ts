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
 *   column stores faithfully.
 * The checks are one iterative pass over the text, so no nesting depth can overflow the stack.
 */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string };

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** `\uXXXX` escapes up to here stand for ASCII (U+0000–U+007F) or C1 controls (U+0080–U+009F). */
const LAST_REFUSED_ESCAPE = 0x9f;
const LONE_SURROGATE = "a string holds a lone UTF-16 surrogate";

export function parseJsonStrict(text: string): JsonParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "body is not valid JSON" };
  }
  // Unescaped lone surrogates can only come from the caller's string itself; escaped ones are found by scan.
  const problem = text.isWellFormed() ? scan(text) : LONE_SURROGATE;
  return problem ? { ok: false, message: problem } : { ok: true, value };
}

/** Walks the (already valid) JSON text once, tracking the keys of each open object. */
function scan(text: string): string | undefined {
  // One entry per open bracket: the keys an object has had so far, or null for an array.
  const open: Array<Set<string> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{") open.push(new Set());
    else if (char === "[") open.push(null);
    else if (char === "}" || char === "]") open.pop();
    else if (char === '"') {
      const token = readString(text, i);
      const keys = open.at(-1);
      const problem =
        keys && isFollowedByColon(text, token.end + 1)
          ? keyProblem(text.slice(i, token.end + 1), token, keys)
          : token.problem;
      if (problem) return problem;
      i = token.end;
    }
  }
  return undefined;
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
function readString(text: string, start: number): StringToken {
  const token: StringToken = { end: text.length };
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '"') {
      token.end = i;
      return token;
    }
    if (text[i] !== "\\") continue;
    i += 1; // the escaped character: `\"` does not end the string, `\\u` is no escape
    if (text[i] !== "u") continue;
    const written = text.slice(i - 1, i + 5);
    const code = Number.parseInt(written.slice(2), 16);
    i += 4;
    token.firstEscape ??= written;
    if (token.problem) continue;
    if (code <= LAST_REFUSED_ESCAPE) {
      token.problem = `string escape ${written} is refused: \\u escapes may only encode non-ASCII characters from U+00A0 on`;
    } else if (isHighSurrogate(code)) {
      // Well-formed only as a pair: a low surrogate escaped right after it, consumed here.
      const next = text.slice(i + 1, i + 7);
      if (next.startsWith("\\u") && isLowSurrogate(Number.parseInt(next.slice(2), 16))) i += 6;
      else token.problem = LONE_SURROGATE;
    } else if (isLowSurrogate(code)) {
      token.problem = LONE_SURROGATE;
    }
  }
  return token;
}

function keyProblem(quoted: string, token: StringToken, keys: Set<string>): string | undefined {
  if (token.firstEscape)
    return `an object key holds the escape ${token.firstEscape}: keys must be plain ASCII names, not escaped`;
  const key = JSON.parse(quoted) as string;
  if (FORBIDDEN_KEYS.has(key)) return `key "${key}" is not allowed`;
  if (keys.has(key)) return `key "${key}" appears twice in one object`;
  keys.add(key);
  return undefined;
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
