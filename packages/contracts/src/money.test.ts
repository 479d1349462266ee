import { describe, expect, it } from "vitest";
import { millis, zeroMillis } from "./money.ts";
import { describeIssues } from "./validation.ts";

function problem(value: unknown) {
  const result = millis.safeParse(value);
  return result.success ? undefined : describeIssues(result.error);
}

describe("millis", () => {
  it("turns safe non-negative JSON integers into bigint", () => {
    expect(millis.parse(0)).toBe(0n);
    expect(millis.parse(1_000)).toBe(1_000n);
    expect(millis.parse(Number.MAX_SAFE_INTEGER)).toBe(9_007_199_254_740_991n);
  });

  it("rejects floats, strings, negatives, unsafe integers and non-numbers with a precise message", () => {
    expect(problem(1.5)).toBe("must be an integer number of millis, got 1.5");
    expect(problem("100")).toBe("must be a JSON integer of millis, got string");
    expect(problem(-1)).toBe("must not be negative, got -1");
    expect(problem(2 ** 53)).toBe("exceeds 9007199254740991, the largest exact JSON integer");
    expect(problem(1e300)).toBe("exceeds 9007199254740991, the largest exact JSON integer");
    expect(problem(Number.NaN)).toBe("must be an integer number of millis, got NaN");
    expect(problem(null)).toBe("must be a JSON integer of millis, got null");
    expect(problem(100n)).toBe("must be a JSON integer of millis, got bigint");
  });

  it("numbers beyond 2^53 as the wire spells them are refused, never rounded into an amount", () => {
    const exceeds = "exceeds 9007199254740991, the largest exact JSON integer";
    // JSON.parse turns 9007199254740993 into 2^53 and 1e400 into Infinity: neither is a safe integer.
    for (const text of ["9007199254740992", "9007199254740993", "1e21", "1e400", "18446744073709551616"])
      expect([text, problem(JSON.parse(text))]).toEqual([text, exceeds]);
    expect(problem(Number.POSITIVE_INFINITY)).toBe(exceeds);
    expect(problem(JSON.parse("-1e400"))).toBe("must not be negative, got -Infinity");
    expect(problem(JSON.parse("-0"))).toBe("must not be negative, got -0");
    expect(problem(JSON.parse("1.5"))).toBe("must be an integer number of millis, got 1.5");
    expect(millis.parse(JSON.parse("9007199254740991"))).toBe(9_007_199_254_740_991n);
  });

  it("a number written 1000.0 or 1e3 in JSON is the integer 1000 (JSON does not keep the difference)", () => {
    expect(millis.parse(JSON.parse("1.0"))).toBe(1n);
    expect(millis.parse(JSON.parse("1e3"))).toBe(1_000n);
    expect(millis.parse(JSON.parse("1000.0"))).toBe(1_000n);
  });

  it("zeroMillis accepts only 0", () => {
    expect(zeroMillis.parse(0)).toBe(0n);
    expect(zeroMillis.safeParse(1).success).toBe(false);
    expect(zeroMillis.safeParse(-0).success).toBe(false);
  });
});
