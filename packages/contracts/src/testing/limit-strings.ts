import fc from "fast-check";

/**
 * TEST HELPER: strings of an exact number of code points, of characters of one UTF-8 width or mixed,
 * for driving each limit of `limits.ts` at its maximum and one past it. Whitespace is left out of
 * the narrow ranges and the first characters are a serial in the same width, so every string drawn
 * is distinct (an id is used once) and never only whitespace.
 */
export const widths = ["1-byte", "2-byte", "3-byte", "4-byte", "mixed"] as const;
export type Width = (typeof widths)[number];

const inRange = (min: number, max: number) =>
  fc.integer({ min, max }).map((code) => String.fromCodePoint(code));

/** One character of `width` UTF-8 bytes; never a surrogate, never ASCII whitespace or control. */
const characterOf: Record<Exclude<Width, "mixed">, fc.Arbitrary<string>> = {
  "1-byte": inRange(0x21, 0x7e),
  "2-byte": inRange(0xa1, 0x7ff),
  "3-byte": fc.oneof(inRange(0x800, 0xd7ff), inRange(0xe000, 0xfffd)),
  "4-byte": inRange(0x1_0000, 0x10_ffff),
};

/** The first code point of 16 in a row of each width, all printable and none whitespace. */
const serialDigits: Record<Exclude<Width, "mixed">, number> = {
  "1-byte": 0x41, // A…P
  "2-byte": 0x410, // Cyrillic А…П
  "3-byte": 0x4e00, // CJK 一…
  "4-byte": 0x1_f600, // emoji 😀…
};
const serialLength = 6;
let serial = 0;

/** `serial` in 6 base-16 digits of `width` (mixed: the four widths in turn). */
function serialOf(width: Width, value: number): string {
  const order = ["1-byte", "2-byte", "3-byte", "4-byte"] as const;
  return Array.from({ length: serialLength }, (_, position) => {
    const digit = (value >> (4 * (serialLength - 1 - position))) & 0xf;
    const of = width === "mixed" ? order[position % order.length] : width;
    return String.fromCodePoint(serialDigits[of ?? "1-byte"] + digit);
  }).join("");
}

/** A distinct string of exactly `codePoints` code points of `width` (at least 6). */
export function stringOf(width: Width, codePoints: number): fc.Arbitrary<string> {
  if (codePoints < serialLength) throw new Error(`stringOf needs at least ${serialLength} code points`);
  const character = width === "mixed" ? fc.oneof(...Object.values(characterOf)) : characterOf[width];
  return fc
    .array(character, { minLength: codePoints - serialLength, maxLength: codePoints - serialLength })
    .map((characters) => {
      serial = (serial + 1) % 16 ** serialLength;
      return `${serialOf(width, serial)}${characters.join("")}`;
    });
}

/** One value of `stringOf`: for a run that wants a single id, not a property. */
export const sampleOf = (width: Width, codePoints: number): string =>
  fc.sample(stringOf(width, codePoints), 1)[0] ?? "";

/** Characters of `width` making exactly `bytes` UTF-8 bytes (ASCII makes up what one width cannot). */
export function bytesOf(width: Width, bytes: number): string {
  const per = { "1-byte": 1, "2-byte": 2, "3-byte": 3, "4-byte": 4, mixed: 10 }[width];
  const unit = { "1-byte": "a", "2-byte": "é", "3-byte": "中", "4-byte": "😀", mixed: "aé中😀" }[width];
  return `${unit.repeat(Math.floor(bytes / per))}${"b".repeat(bytes % per)}`;
}

/**
 * A property over a limit's two edges in characters of `width`: `check` gets a distinct string of
 * exactly `codePoints` code points and one of `codePoints + 1`, `runs` times (fast-check shrinks and
 * reports the seed of a failing pair).
 */
export async function atTheEdges(
  width: Width,
  codePoints: number,
  runs: number,
  check: (atMax: string, pastMax: string) => Promise<void>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(stringOf(width, codePoints), stringOf(width, codePoints + 1), check),
    // A failing call on a running system is not a pure function: shrinking would only resend it.
    { numRuns: runs, endOnFailure: true },
  );
}
