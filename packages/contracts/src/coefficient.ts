import { limits } from "./limits.ts";

/**
 * A CLOSE_ROUND cashout coefficient: a decimal from 0 to 1,000,000 (`1.5`, `2.35`, `1.5e2`,
 * `150.00`, and a float artefact such as `2.3000000000000003` are all fine; `1e21` and `-1` are not).
 * The bound keeps a payout (stake × coefficient) within the ledger's integers and a coefficient
 * within what a JS number carries to 8 decimal places, the precision payouts are computed at
 * (`reconcile.ts`): beyond the 8th place a payout moves by less than a milli for any stake under
 * 100,000 units, and reconciliation tolerates a milli. Outside the range the close is refused at the
 * gateway with a 400: accepting it would strand its effects downstream, where nothing can answer the
 * platform any more.
 */
export const coefficientMax = limits.coefficient.max;

const maxIntegerDigits = String(coefficientMax).length;
const written = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Why `value` (a number JSON.parse returned from the source text `text()`) is not a coefficient.
 * At the edges it is judged on the text, exactly, and by digit counts first, so `1e999999999` costs
 * no more than `1`, and `-1e-400` (a negative JSON.parse reads as -0) is refused as negative.
 */
export function coefficientProblem(value: unknown, text: () => string): string | undefined {
  if (typeof value !== "number")
    return `must be a decimal number, got ${value === null ? "null" : typeof value}`;
  // Parsing rounds monotonically and 0 and the maximum are exact numbers, so a number strictly
  // between them was written strictly between them, and +0 was written as a zero (a negative
  // rounds to -0): the text need not be read for almost every coefficient.
  if (value > 0 ? value < coefficientMax : Object.is(value, 0)) return undefined;
  return writtenProblem(value, text());
}

function writtenProblem(value: number, text: string): string | undefined {
  const parts = written.exec(text);
  if (!parts) return `must be a decimal number, got ${text}`;
  const [, sign, whole = "", fraction = "", exponentText = "0"] = parts;
  // The written value is digits × 10^exponent, digits without leading zeros.
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (digits === "") return undefined; // zero, however written (`-0` and `0e5` included)
  if (sign) return `must not be negative, got ${text}`;
  const exponent = Number(exponentText) - fraction.length;
  // Digits before the decimal point; an exponent too large for a number is a huge one or a tiny one.
  const integerDigits = Number.isSafeInteger(exponent)
    ? digits.length + exponent
    : Math.sign(exponent) * Infinity;
  if (integerDigits > maxIntegerDigits || (integerDigits === maxIntegerDigits && value > coefficientMax))
    return `must be at most ${coefficientMax}, got ${text}`;
  return undefined;
}
