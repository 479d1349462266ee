/**
 * JSON.parse for untrusted bodies. Beyond syntax it refuses what JSON.parse silently accepts:
 * a key repeated in one object (which value did the signer mean?), `__proto__`, `constructor` and
 * `prototype` keys (prototype pollution downstream), and strings that are not well-formed UTF-16
 * (lone surrogates, which no database column stores faithfully). Keys are compared after
 * unescaping, so `"\u0061mount"` repeats `"amount"`.
 */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string };

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export function parseJsonStrict(text: string): JsonParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "body is not valid JSON" };
  }
  const problem = scanKeys(text) ?? findMalformedString(value);
  return problem ? { ok: false, message: problem } : { ok: true, value };
}

/** Walks the (already valid) JSON text, tracking the keys of each open object. */
function scanKeys(text: string): string | undefined {
  const open: Array<Set<string> | null> = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{") open.push(new Set());
    else if (char === "[") open.push(null);
    else if (char === "}" || char === "]") open.pop();
    else if (char === '"') {
      const end = endOfString(text, i);
      const keys = open.at(-1);
      if (keys && isFollowedByColon(text, end + 1)) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (FORBIDDEN_KEYS.has(key)) return `key "${key}" is not allowed`;
        if (keys.has(key)) return `key "${key}" appears twice in one object`;
        keys.add(key);
      }
      i = end;
    }
  }
  return undefined;
}

function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function isFollowedByColon(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === ":") return true;
    if (char !== " " && char !== "\t" && char !== "\n" && char !== "\r") return false;
  }
  return false;
}

function findMalformedString(value: unknown): string | undefined {
  if (typeof value === "string")
    return value.isWellFormed() ? undefined : "a string holds a lone UTF-16 surrogate";
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = findMalformedString(item);
      if (problem) return problem;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const problem = findMalformedString(key) ?? findMalformedString(item);
      if (problem) return problem;
    }
  }
  return undefined;
}
