import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonStrict } from "./safe-json.ts";

describe("parseJsonStrict", () => {
  it("parses ordinary JSON like JSON.parse", () => {
    const text = '{"a":1,"b":[{"a":2},{"a":3}],"c":{"d":"x:y","e":"\\"quoted\\""}}';
    expect(parseJsonStrict(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it("refuses invalid JSON", () => {
    expect(parseJsonStrict("{")).toEqual({ ok: false, message: "body is not valid JSON" });
    expect(parseJsonStrict("")).toEqual({ ok: false, message: "body is not valid JSON" });
  });

  it("refuses a key repeated in one object, also when spelled with escapes", () => {
    expect(parseJsonStrict('{"amount":1,"amount":2}')).toEqual({
      ok: false,
      message: 'key "amount" appears twice in one object',
    });
    expect(parseJsonStrict('{"amount":1,"\\u0061mount":2}')).toMatchObject({ ok: false });
    // The same key in sibling or nested objects is fine.
    expect(parseJsonStrict('{"a":{"amount":1},"b":{"amount":2},"amount":3}').ok).toBe(true);
  });

  it("refuses __proto__, constructor and prototype keys at any depth", () => {
    expect(parseJsonStrict('{"__proto__":{"admin":true}}')).toEqual({
      ok: false,
      message: 'key "__proto__" is not allowed',
    });
    expect(parseJsonStrict('{"a":[{"constructor":{"prototype":1}}]}')).toMatchObject({ ok: false });
    expect(parseJsonStrict('{"\\u005f_proto__":1}')).toMatchObject({ ok: false });
    // As values they are just strings.
    expect(parseJsonStrict('{"name":"__proto__"}').ok).toBe(true);
  });

  it("refuses lone surrogates but accepts proper astral characters", () => {
    expect(parseJsonStrict('{"user_id":"\\ud800"}')).toEqual({
      ok: false,
      message: "a string holds a lone UTF-16 surrogate",
    });
    expect(parseJsonStrict('{"user_id":"\\ud83d\\ude00 😀"}').ok).toBe(true);
  });

  it("agrees with JSON.parse on any JSON without repeated or forbidden keys", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const result = parseJsonStrict(text);
        if (result.ok) expect(result.value).toEqual(JSON.parse(text));
        else expect(result.message).toMatch(/not allowed|surrogate/);
      }),
      { numRuns: 1_000 },
    );
  });
});
