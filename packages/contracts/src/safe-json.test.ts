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

  it("refuses lone surrogates, escaped or not, but accepts proper astral characters", () => {
    expect(parseJsonStrict('{"user_id":"\\ud800"}')).toEqual({
      ok: false,
      message: "a string holds a lone UTF-16 surrogate",
    });
    expect(parseJsonStrict('{"user_id":"\\udc00\\ud800"}')).toMatchObject({ ok: false });
    expect(parseJsonStrict('{"user_id":"\\ud83d"}').ok).toBe(false);
    expect(parseJsonStrict('{"user_id":"\ud800"}').ok).toBe(false);
    expect(parseJsonStrict('{"user_id":"\\ud83d\\ude00 😀"}')).toEqual({
      ok: true,
      value: { user_id: "😀 😀" },
    });
  });

  it("refuses any \\u escape in an object key, whatever it encodes", () => {
    expect(parseJsonStrict('{"\\u0061ction":"BET"}')).toEqual({
      ok: false,
      message: "an object key holds the escape \\u0061: keys must be plain ASCII names, not escaped",
    });
    expect(parseJsonStrict('{"a":[{"caf\\u00e9":1}]}')).toMatchObject({
      ok: false,
      message: expect.stringContaining("\\u00e9"),
    });
    // The same escape as a value is fine, and so are the short escapes in keys.
    expect(parseJsonStrict('{"name":"caf\\u00e9","a\\"b":1}')).toEqual({
      ok: true,
      value: { name: "café", 'a"b': 1 },
    });
  });

  it("refuses \\u escapes of ASCII and control characters (U+0000 to U+009F) in any string", () => {
    expect(parseJsonStrict('{"action":"\\u0042ET"}')).toEqual({
      ok: false,
      message:
        "string escape \\u0042 is refused: \\u escapes may only encode non-ASCII characters from U+00A0 on",
    });
    for (const written of ["\\u0000", "\\u001f", "\\u0022", "\\u005C", "\\u007f", "\\u0080", "\\u009F"])
      expect([written, parseJsonStrict(`["x${written}y"]`)]).toEqual([
        written,
        { ok: false, message: expect.stringContaining(`string escape ${written} is refused`) },
      ]);
    // The short escapes JSON defines stay accepted, and so does an escaped backslash before a `u`.
    expect(parseJsonStrict('["a\\n\\t\\"\\\\\\/b", "\\\\u0042"]')).toEqual({
      ok: true,
      value: ['a\n\t"\\/b', "\\u0042"],
    });
  });

  it("accepts \\u escapes of non-ASCII characters from U+00A0 on, as writers that escape all non-ASCII send them", () => {
    expect(parseJsonStrict('{"username":"\\u00a0\\u00e9\\u4e2d\\ud83d\\ude00"}')).toEqual({
      ok: true,
      value: { username: "\u00a0é中😀" },
    });
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (name) => {
        const text = JSON.stringify({ username: name }).replace(
          /[\u007f-\uffff]/g,
          (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
        );
        const refused = /[\u007f-\u009f]/.test(name);
        expect(parseJsonStrict(text)).toEqual(
          refused
            ? { ok: false, message: expect.stringMatching(/^string escape \\u00[89a-f][0-9a-f] is refused/) }
            : { ok: true, value: { username: name } },
        );
      }),
      { numRuns: 500 },
    );
  });

  it("does not overflow the stack on deep nesting", () => {
    const depth = 100_000;
    expect(parseJsonStrict(`${"[".repeat(depth)}"\\u0041"${"]".repeat(depth)}`)).toMatchObject({ ok: false });
    expect(parseJsonStrict(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`).ok).toBe(true);
  });

  it("agrees with JSON.parse on any JSON without repeated or forbidden keys or refused escapes", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary" }), (value) => {
        const text = JSON.stringify(value);
        const result = parseJsonStrict(text);
        if (result.ok) expect(result.value).toEqual(JSON.parse(text));
        else expect(result.message).toMatch(/not allowed|surrogate|escape/);
      }),
      { numRuns: 1_000 },
    );
  });
});
