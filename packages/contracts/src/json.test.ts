import { describe, expect, it } from "vitest";
import { stringifyJson } from "./json.ts";

describe("stringifyJson", () => {
  it("writes bigint as a plain JSON integer, exactly, even beyond 2^53", () => {
    expect(stringifyJson({ new_balance: 9_007_199_254_740_993n })).toBe('{"new_balance":9007199254740993}');
  });

  it("matches JSON.stringify for everything else and drops undefined fields", () => {
    const value = { a: 'x"y', b: [1, null, true], c: { d: undefined, e: 2.5 }, f: "é" };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });
});
