/** Where a JSON number is in its grammar (RFC 8259): after a minus, a leading zero, digits, … */
export enum NumberPart {
  Minus,
  Zero,
  Int,
  Dot,
  Frac,
  E,
  ESign,
  Exp,
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isExponent = (code: number) => code === 0x65 || code === 0x45;

/** The part a number's first character (`-` or a digit) begins. */
export const firstNumberPart = (code: number): NumberPart =>
  code === 0x2d ? NumberPart.Minus : code === 0x30 ? NumberPart.Zero : NumberPart.Int;

/**
 * The part after one more character (`code`; -1: the end of the text): `ended` when that character
 * is not the number's (it was whole before it), `invalid` when the text can be no JSON number
 * (`-x`, `01`, `1.`, `1e`). The one number grammar of the streamed readers (`json-stream.ts`,
 * `array-text.ts`).
 */
export function nextNumberPart(part: NumberPart, code: number): NumberPart | "ended" | "invalid" {
  const digit = isDigit(code);
  switch (part) {
    case NumberPart.Minus:
      return digit ? firstNumberPart(code) : "invalid";
    case NumberPart.Zero:
    case NumberPart.Int:
      if (digit) return part === NumberPart.Int ? part : "invalid";
      if (code === 0x2e) return NumberPart.Dot;
      return isExponent(code) ? NumberPart.E : "ended";
    case NumberPart.Dot:
      return digit ? NumberPart.Frac : "invalid";
    case NumberPart.Frac:
      if (digit) return part;
      return isExponent(code) ? NumberPart.E : "ended";
    case NumberPart.E:
      if (code === 0x2b || code === 0x2d) return NumberPart.ESign;
      return digit ? NumberPart.Exp : "invalid";
    case NumberPart.ESign:
      return digit ? NumberPart.Exp : "invalid";
    case NumberPart.Exp:
      return digit ? part : "ended";
  }
}
