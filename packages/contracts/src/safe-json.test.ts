import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonDepthMax, jsonObjectKeysMax, tooDeep, tooManyKeys } from "./json-limits.ts";
import { parseJsonBytesStrict, parseJsonStrict } from "./safe-json.ts";

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
    expect(parseJsonStrict('{"amount":1,"amount":2}')).toMatchObject({
      ok: false,
      message: 'key "amount" appears twice in one object',
    });
    expect(parseJsonStrict('{"amount":1,"\\u0061mount":2}')).toMatchObject({ ok: false });
    // The same key in sibling or nested objects is fine.
    expect(parseJsonStrict('{"a":{"amount":1},"b":{"amount":2},"amount":3}').ok).toBe(true);
  });

  it("refuses __proto__, constructor and prototype keys at any depth", () => {
    expect(parseJsonStrict('{"__proto__":{"admin":true}}')).toMatchObject({
      ok: false,
      message: 'key "__proto__" is not allowed',
    });
    expect(parseJsonStrict('{"a":[{"constructor":{"prototype":1}}]}')).toMatchObject({ ok: false });
    expect(parseJsonStrict('{"\\u005f_proto__":1}')).toMatchObject({ ok: false });
    // As values they are just strings.
    expect(parseJsonStrict('{"name":"__proto__"}').ok).toBe(true);
  });

  it("refuses lone surrogates, escaped or not, but accepts proper astral characters", () => {
    expect(parseJsonStrict('{"user_id":"\\ud800"}')).toMatchObject({
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
    expect(parseJsonStrict('{"\\u0061ction":"BET"}')).toMatchObject({
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
    expect(parseJsonStrict('{"action":"\\u0042ET"}')).toMatchObject({
      ok: false,
      message:
        "string escape \\u0042 is refused: \\u escapes may only encode non-ASCII characters from U+00A0 on",
    });
    for (const written of ["\\u0000", "\\u001f", "\\u0022", "\\u005C", "\\u007f", "\\u0080", "\\u009F"])
      expect([written, parseJsonStrict(`["x${written}y"]`)]).toMatchObject([
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
        expect(parseJsonStrict(text)).toMatchObject(
          refused
            ? { ok: false, message: expect.stringMatching(/^string escape \\u00[89a-f][0-9a-f] is refused/) }
            : { ok: true, value: { username: name } },
        );
      }),
      { numRuns: 500 },
    );
  });

  it("does not overflow the stack on deep nesting, and refuses a body nested deeper than jsonDepthMax wherever it lies", () => {
    const depth = 100_000;
    expect(parseJsonStrict(`${"[".repeat(depth)}"\\u0041"${"]".repeat(depth)}`)).toMatchObject({ ok: false });
    expect(parseJsonStrict(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`)).toEqual({
      ok: false,
      message: tooDeep,
      lenient: { value: expect.anything() },
    });
    const nested = (levels: number) => `{"extra":${"[".repeat(levels - 1)}1${"]".repeat(levels - 1)}}`;
    const ignoreAll = { ignoredFields: () => () => true };
    expect(parseJsonStrict(nested(jsonDepthMax), ignoreAll).ok).toBe(true);
    // Not located: a field a close ignores does not let it through either.
    expect(parseJsonStrict(nested(jsonDepthMax + 1), ignoreAll)).toMatchObject({
      ok: false,
      message: tooDeep,
    });
  });

  it("refuses an object of more than jsonObjectKeysMax keys, wherever it lies", () => {
    const keys = (count: number) =>
      `{"extra":{${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(",")}}}`;
    const ignoreAll = { ignoredFields: () => () => true };
    expect(parseJsonStrict(keys(jsonObjectKeysMax), ignoreAll).ok).toBe(true);
    expect(parseJsonStrict(keys(jsonObjectKeysMax + 1), ignoreAll)).toMatchObject({
      ok: false,
      message: tooManyKeys,
    });
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
  it("locates a problem by the top-level key of the root object it lies under, the key itself for a problem in a key", () => {
    const cases: Array<[string, string, string]> = [
      ['{"a":1,"provider":"x","provider":"y"}', "provider", 'key "provider" appears twice in one object'],
      [
        '{"a":1,"attributes":[{"name":"n","value":"1","value":"2"}]}',
        "attributes",
        'key "value" appears twice',
      ],
      ['{"provider":"\\u0032"}', "provider", "string escape \\u0032 is refused"],
      ['{"a":{"b":["\\ud800"]}}', "a", "lone UTF-16 surrogate"],
      ['{"a":1,"extra":{"__proto__":1}}', "extra", 'key "__proto__" is not allowed'],
      ['{"__proto__":1}', "__proto__", 'key "__proto__" is not allowed'],
      // An escaped key is located by what it reads as: `\u0061ction` is the field `action`.
      ['{"game":"g","\\u0061ction":"BET"}', "action", "an object key holds the escape \\u0061"],
      ['{"a":"\ud800"}', "a", "lone UTF-16 surrogate"],
    ];
    for (const [text, field, message] of cases)
      expect([text, parseJsonStrict(text)]).toEqual([
        text,
        { ok: false, field, message: expect.stringContaining(message), lenient: { value: JSON.parse(text) } },
      ]);
    // Not inside a root object: no field.
    expect(parseJsonStrict('[{"a":1,"a":2}]')).toEqual({
      ok: false,
      message: 'key "a" appears twice in one object',
      lenient: { value: [{ a: 2 }] },
    });
    expect(parseJsonStrict('"\\u0041"')).toEqual({
      ok: false,
      message: expect.stringContaining("\\u0041"),
      lenient: { value: "A" },
    });
  });

  it("locates a problem put anywhere in any top-level field under that field", () => {
    const clean = fc
      .jsonValue({ maxDepth: 3 })
      .filter((value) => parseJsonStrict(JSON.stringify(value) ?? "null").ok);
    const flaws = ['"\\u0041"', '{"k":1,"k":2}', '{"__proto__":1}', '"\\udc00"', '{"\\u00e9":1}'];
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z_]{1,8}$/), clean), {
          minLength: 1,
          selector: ([key]) => key,
        }),
        fc.nat(),
        fc.constantFrom(...flaws),
        fc.boolean(),
        (entries, pick, flaw, inArray) => {
          const target = entries[pick % entries.length]?.[0] ?? "";
          const text = `{${entries
            .map(([key, value]) => {
              const written = JSON.stringify(value) ?? "null";
              const flawed = inArray ? `[${written},${flaw}]` : `{"v":${written},"w":${flaw}}`;
              return `${JSON.stringify(key)}:${key === target ? flawed : written}`;
            })
            .join(",")}}`;
          expect(parseJsonStrict(text)).toMatchObject({ ok: false, field: target });
          expect(parseJsonStrict(text, { ignoredFields: () => (field) => field === target })).toMatchObject({
            ok: true,
            ignored: { field: target },
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("lets through a problem that lies only under a field the reader ignores, and reports it; any other refuses", () => {
    const ignoreProvider = () => (field: string) => field === "provider" || field === "extra";
    const options = { ignoredFields: ignoreProvider };
    for (const text of [
      '{"action":"X","provider":"a","provider":"b"}',
      '{"action":"X","provider":"\\u0032"}',
      '{"action":"X","provider":"\\ud800"}',
      '{"action":"X","extra":{"__proto__":{"a":1},"k":1,"k":2}}',
      '{"action":"X","provider":1,"\\u0070rovider":2}',
    ])
      expect([text, parseJsonStrict(text, options)]).toEqual([
        text,
        {
          ok: true,
          value: JSON.parse(text),
          ignored: { field: expect.stringMatching(/^(provider|extra)$/), message: expect.any(String) },
        },
      ]);
    // A problem under a field it reads refuses the body, also after one it ignores.
    expect(parseJsonStrict('{"provider":"\\u0032","action_id":"a","action_id":"b"}', options)).toEqual({
      ok: false,
      field: "action_id",
      message: 'key "action_id" appears twice in one object',
      lenient: { value: { provider: "2", action_id: "b" } },
    });
    expect(parseJsonStrict('{"provider":"x","attributes":["\\u0041"]}', options)).toMatchObject({
      ok: false,
      field: "attributes",
    });
    // The reader decides from JSON.parse's reading: here it ignores nothing.
    const onlyForCloses = (value: unknown) =>
      (value as { action?: unknown }).action === "CLOSE_ROUND" ? () => true : undefined;
    expect(parseJsonStrict('{"action":"WIN","p":1,"p":2}', { ignoredFields: onlyForCloses }).ok).toBe(false);
    expect(parseJsonStrict('{"action":"CLOSE_ROUND","p":1,"p":2}', { ignoredFields: onlyForCloses }).ok).toBe(
      true,
    );
  });

  it("finds the first problem outside the ignored fields in one pass, at any depth it allows", () => {
    const depth = jsonDepthMax - 1;
    const deep = `{"extra":${"[".repeat(depth)}"\\u0041"${"]".repeat(depth)},"kept":${"[".repeat(depth)}"\\u0042"${"]".repeat(depth)}}`;
    const result = parseJsonStrict(deep, { ignoredFields: () => (field) => field === "extra" });
    expect(result).toMatchObject({ ok: false, field: "kept", message: expect.stringContaining("\\u0042") });
  });

  it("reads bytes that are not UTF-8 as U+FFFD, a problem located like any other, with the first invalid byte's offset", () => {
    const bytes = Buffer.concat([
      Buffer.from('\ufeff{"a":"é\ufffd😀","provider":"pl'),
      Buffer.from([0xff, 0xe2, 0x82]),
      Buffer.from('atform","b":"'),
      Buffer.from([0xc0, 0x80]),
      Buffer.from('"}'),
    ]);
    const offset = Buffer.from('\ufeff{"a":"é\ufffd😀","provider":"pl').length;
    const ignoring = (fields: string[]) => ({
      ignoredFields: () => (field: string) => fields.includes(field),
    });
    expect(parseJsonBytesStrict(bytes, ignoring(["a"]))).toEqual({
      ok: false,
      field: "provider",
      message: "a string holds bytes that are not valid UTF-8",
      lenient: { value: { a: "é\ufffd😀", provider: "pl\ufffd\ufffdatform", b: "\ufffd\ufffd" } },
      text: '{"a":"é\ufffd😀","provider":"pl\ufffd\ufffdatform","b":"\ufffd\ufffd"}',
      invalidUtf8At: offset,
    });
    // Ignoring `provider` is not enough: `b` holds invalid bytes too.
    expect(parseJsonBytesStrict(bytes, ignoring(["a", "provider"]))).toMatchObject({ ok: false, field: "b" });
    // Which U+FFFD the decoder wrote cannot be told from the text: once the body holds invalid
    // bytes, one written as such (in `a`) counts as well.
    expect(parseJsonBytesStrict(bytes)).toMatchObject({ ok: false, field: "a", invalidUtf8At: offset });
    expect(parseJsonBytesStrict(bytes, ignoring(["provider", "b", "a"]))).toMatchObject({
      ok: true,
      ignored: { field: "a" },
      invalidUtf8At: offset,
    });
    // In a body that is valid UTF-8 it is just a character.
    expect(parseJsonBytesStrict(Buffer.from('{"a":"\ufffd"}'))).toEqual({
      ok: true,
      value: { a: "\ufffd" },
      text: '{"a":"\ufffd"}',
    });
  });
});
