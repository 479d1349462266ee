import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCallback } from "../callback-reading.ts";
import { closeIdsOf, closeRefusalReason, storedCloseIds } from "../close-refusal.ts";
import { stringifyJson } from "../json.ts";
import { jsonDepthMax, jsonObjectKeysMax } from "../json-limits.ts";
import { limits } from "../limits.ts";
import { stringOf, widths } from "../testing/limit-strings.ts";
import { describeIssues } from "../validation.ts";
import { depositRequest } from "../wallet-request.ts";
import { CloseReader, closeHeadChars, type StreamedCloseVerdict } from "./close-reader.ts";

/**
 * What the whole-body path makes of `raw` sent to /deposit past the ordinary limit: the gateway's
 * reading (`readCallback`), then the ledger's judgement of the call (`calls/plan.ts` parses the text
 * with JSON.parse and the deposit schema; `verbs/refused-closes.ts` stores a refusal with the round
 * and key `closeIdsOf` finds). The streamed reader must come to the same, word for word.
 */
function wholeBodyVerdict(raw: Buffer): unknown {
  const reading = readCallback("deposit", raw, 0);
  if (reading.kind !== "call") return reading;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reading.text);
  } catch {
    parsed = undefined;
  }
  const ids = storable(closeIdsOf(parsed, reading.text));
  if (reading.closeRefusal) return { kind: "refused-close", refusal: reading.closeRefusal, ...ids };
  const checked = depositRequest.safeParse(parsed);
  if (!checked.success)
    return {
      kind: "refused-close",
      refusal: { reason: closeRefusalReason(checked.error), message: describeIssues(checked.error) },
      ...ids,
    };
  if (checked.data.action !== "CLOSE_ROUND") throw new Error("not a close");
  const { action_id, provider_tx_id, game, currency, attributes } = checked.data;
  return {
    kind: "close",
    roundId: action_id,
    providerTxId: provider_tx_id,
    game,
    ...(currency === undefined ? {} : { currency }),
    stakes: stringifyJson(attributes.bets),
    coefficients: JSON.stringify(attributes.cashOutCoefficients),
    count: attributes.bets.length,
  };
}

/** The round and key as a refusal stores them (`storedCloseIds`): only ids within their limits. */
function storable(ids: { roundId?: string; providerTxId?: string }) {
  const { roundId, providerTxId } = storedCloseIds(ids);
  return {
    ...(roundId === null ? {} : { roundId }),
    ...(providerTxId === null ? {} : { providerTxId }),
  };
}

/** The streamed reader's verdict on `raw` cut into `cuts` pieces, in the shape above. */
function streamedVerdict(raw: Buffer, cuts: number[]): unknown {
  const reader = new CloseReader();
  let from = 0;
  for (const cut of [...cuts.map((c) => Math.min(c, raw.length)).sort((a, b) => a - b), raw.length]) {
    reader.write(raw.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  return comparable(reader.finish());
}

function comparable(verdict: StreamedCloseVerdict): unknown {
  switch (verdict.kind) {
    case "too-large":
      return { kind: "too-large" };
    case "refused":
      return { kind: "refused", message: verdict.message };
    case "refused-close": {
      const { head: _, roundId, providerTxId, ...rest } = verdict;
      return { ...rest, ...storable({ roundId, providerTxId }) };
    }
    case "close": {
      const { arrays, ...rest } = verdict;
      return {
        ...rest,
        stakes: arrays.bets.pieces.join(""),
        coefficients: arrays.cashOutCoefficients.pieces.join(""),
        count: arrays.count,
      };
    }
  }
}

const closeBody = (attributes: unknown, extra: Record<string, unknown> = {}) => ({
  amount: 0,
  provider: "platform",
  provider_tx_id: "r-1-close-round",
  game: "crashGame",
  action: "CLOSE_ROUND",
  action_id: "r-1",
  attributes,
  ...extra,
});
const arrays = (coefficients: unknown, stakes: unknown) => [
  {
    name: "crashGameCashOutCoefficients",
    value: typeof coefficients === "string" ? coefficients : JSON.stringify(coefficients),
  },
  { name: "crashGameBets", value: typeof stakes === "string" ? stakes : JSON.stringify(stakes) },
];

/** Both readers on `text` (or bytes), whole and in every split into two and into one-byte pieces. */
function agree(body: string | Buffer) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const expected = wholeBodyVerdict(raw);
  expect(streamedVerdict(raw, [])).toEqual(expected);
  expect(
    streamedVerdict(
      raw,
      Array.from({ length: raw.length }, (_, i) => i),
    ),
  ).toEqual(expected);
  return expected;
}

describe("CloseReader, held to the whole-body path", () => {
  it("a valid close: the same request, its arrays written back as the ledger stores them", () => {
    const verdict = agree(
      JSON.stringify(
        closeBody(arrays([0, 1.5, 2.3000000000000003, 1e6, 150.0, -0], [1000, 2e3, 3000, 1, 0, 5])),
      ),
    );
    expect(verdict).toMatchObject({ kind: "close", count: 6, stakes: "[1000,2000,3000,1,0,5]" });
  });

  it("every refusal of the schema, word for word", () => {
    for (const body of [
      closeBody(arrays([1, 2], [100])),
      closeBody(arrays([1], [-1])),
      closeBody(arrays([1e7], [1])),
      closeBody(arrays([1, "x"], [1, 2])),
      closeBody(arrays([-1, null], [1, 2])),
      closeBody(arrays("[1,", [1])),
      closeBody(arrays("{}", [1])),
      closeBody(arrays([1], [1.5])),
      closeBody(arrays([1], [2 ** 60])),
      closeBody(arrays([[1]], [{}])),
      closeBody([{ name: "crashGameBets", value: "[1]" }]),
      closeBody([...arrays([1], [1]), { name: "crashGameBets", value: "[2]" }]),
      closeBody([...arrays([1], [1]), { name: "crashGameBets", value: "[1]" }]),
      closeBody([...arrays([1], [1]), { name: "crashGameBets", value: 5 }]),
      closeBody([
        { name: "crashGameBets", value: 5 },
        { name: "crashGameBets", value: 7 },
        ...arrays([1], [1]),
      ]),
      closeBody([
        { value: "[1]", name: "crashGameCashOutCoefficients" },
        { name: "crashGameBets", value: {} },
      ]),
      closeBody([{ name: "crashGameBets" }, arrays([1], [1])[0], 7, null, []]),
      closeBody("not a list"),
      closeBody({ an: "object" }),
      closeBody(arrays([1], [1]), { action_id: "" }),
      closeBody(arrays([1], [1]), { action_id: " " }),
      closeBody(arrays([1], [1]), { action_id: "x".repeat(129) }),
      closeBody(arrays([1], [1]), { action_id: "x".repeat(5_000), game: " ".repeat(3_000) }),
      closeBody(arrays([1], [1]), { provider_tx_id: `${" ".repeat(2_000)}y`, game: "\u00a0".repeat(1_500) }),
      closeBody(arrays([1], [1]), { action: `CLOSE_ROUND${" ".repeat(2_000)}` }),
      closeBody("x".repeat(4_000)),
      closeBody(arrays([1], [1]), { action_id: 5, game: ["crash"] }),
      closeBody(arrays([1], [1]), { provider_tx_id: null, game: undefined }),
      closeBody(arrays([1], [1]), { currency: "eur" }),
      closeBody(arrays([1], [1]), { currency: "EUR" }),
    ])
      agree(JSON.stringify(body));
  });

  it("strict JSON: located problems, let through in a field the close does not read, the limits not", () => {
    const text = JSON.stringify(closeBody(arrays([1], [1])));
    for (const body of [
      text.replace('"provider":"platform"', '"provider":"a","provider":"b"'),
      text.replace('"action_id":"r-1"', '"action_id":"r-1","action_id":"r-2"'),
      text.replace('"provider":"platform"', '"provider":"\\u0041"'),
      text.replace('"game":"crashGame"', '"game":"\\u0063rash"'),
      text.replace('"game":"crashGame"', '"game":"\\ud83d\\ude00 \\ud83d x"'),
      text.replace('"game":"crashGame"', '"g\\u0061me":"crashGame"'),
      text.replace('"provider":"platform"', '"__proto__":{}'),
      text.replace('"provider":"platform"', '"provider":{"a":1,"a":2}'),
      text.replace('"amount":0', `"amount":${"[".repeat(jsonDepthMax - 1)}${"]".repeat(jsonDepthMax - 1)}`),
      text.replace('"amount":0', `"amount":${"[".repeat(jsonDepthMax)}${"]".repeat(jsonDepthMax)}`),
      text.replace(
        '"amount":0',
        `"amount":{${Array.from({ length: jsonObjectKeysMax + 1 }, (_, i) => `"k${i}":0`)}}`,
      ),
      text.replace('"action":"CLOSE_ROUND"', '"action":"WIN","note":"CLOSE_ROUND"'),
      text.replace('"action":"CLOSE_ROUND"', '"action":"WIN","x":1,"x":2,"note":"CLOSE_ROUND"'),
      text.replace(
        '"action":"CLOSE_ROUND"',
        '"action":"WIN","action":"CLOSE_ROUND","provider":1,"provider":2',
      ),
      `[${text}]`,
      `"CLOSE_ROUND"`,
      `\ufeff${text}`,
      ` \n\t${text}\r\n `,
    ])
      agree(body);
  });

  it("not JSON, or not UTF-8: refused where the whole body is, with the same offset and round", () => {
    const text = JSON.stringify(closeBody(arrays([1], [1])));
    const at = (after: string) => text.indexOf(after) + after.length;
    const insert = (offset: number, bytes: number[]) =>
      Buffer.concat([
        Buffer.from(text.slice(0, offset)),
        Buffer.from(bytes),
        Buffer.from(text.slice(offset)),
      ]);
    for (const body of [
      text.slice(0, -1),
      `${text}x`,
      text.replace("[1]", "[01]"),
      insert(at('"provider":"pl'), [0xff]),
      insert(at('"action_id":"r'), [0xe2, 0x82]),
      insert(at('"game":"crash'), [0xed, 0xa0, 0x80]),
      insert(at('"game":"crash'), [0xef, 0xbf, 0xbd]),
      insert(at('"crashGameBets","value":"['), [0xf0, 0x9f]),
      insert(at('"amount":0'), [0xff]),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), insert(at('"provider":"pl'), [0xc3])]),
      Buffer.concat([Buffer.from(text.slice(0, at('"CLOSE_ROUND"'))), Buffer.from([0xff, 0xfe])]),
      `{"action_id":"r-9","provider_tx_id":"k","action":"CLOSE_ROUND" oops`,
    ])
      agree(body);
  });

  it("agrees on closes of random arrays, attributes and ids, cut into random pieces", () => {
    const item = fc.oneof(
      fc.integer({ min: -5, max: 2_000_000 }),
      fc.double({ min: -10, max: 2e6, noNaN: true }),
      fc.constantFrom(0, -0, 1e6, 1e21, 2 ** 53, 1.5e2, 0.1),
      fc.constantFrom<unknown>("1", null, true, {}, [1]),
    );
    const list = fc.array(item, { maxLength: 12 });
    const value = fc.oneof(
      list.map((items) => JSON.stringify(items)),
      list.map((items) => ` ${JSON.stringify(items, null, 1)} `),
      fc.constantFrom<unknown>("[", "", "{}", "[1,]", 5, null, ["[1]"]),
    );
    const entry = fc.record(
      {
        name: fc.constantFrom<unknown>("crashGameCashOutCoefficients", "crashGameBets", "createDate", 3),
        value,
        extra: fc.constant(1),
      },
      { requiredKeys: [] },
    );
    const body = fc.record({
      attributes: fc.oneof(
        fc.array(entry, { maxLength: 4 }),
        fc.tuple(list, list).map(([c, s]) => arrays(c, s)),
      ),
      action_id: fc.oneof(
        fc.constant("r-1"),
        fc.string({ maxLength: 3 }),
        fc.constant(7),
        // Around the characters the streamed reader keeps of a field (1,024): whitespace, or not, past it.
        fc.constantFrom(
          " ".repeat(1_023),
          `${" ".repeat(1_024)}x`,
          "x".repeat(1_025),
          "\u2028".repeat(1_030),
        ),
      ),
      currency: fc.constantFrom<unknown>("EUR", "eu", undefined, 1),
    });
    fc.assert(
      fc.property(body, fc.array(fc.nat(600), { maxLength: 6 }), (fields, cuts) => {
        const raw = Buffer.from(JSON.stringify(closeBody(fields.attributes, fields)));
        expect(streamedVerdict(raw, cuts)).toEqual(wholeBodyVerdict(raw));
      }),
      { numRuns: 1_500 },
    );
  });

  it("agrees on closes mutated byte by byte: syntax, escapes, surrogates, bytes that are not UTF-8", () => {
    const base = Buffer.from(
      JSON.stringify(closeBody(arrays([0, 1.5], [100, 200]), { user_id: "p-é😀", createDate: "2026-11-27" })),
    );
    const fragments = [
      '"',
      "\\",
      "\\u0041",
      "\\ud83d",
      "\\ude00",
      "\\ud83d\\ude00",
      "\\u00e9",
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      "0",
      "-",
      "e",
      " ",
      "\ufffd",
      "\ufeff",
      "é",
      "😀",
      "\u0001",
    ].map((s) => Buffer.from(s));
    const bytes = [
      [0xff],
      [0xc3],
      [0xe2, 0x82],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xef, 0xbf, 0xbd],
    ].map((b) => Buffer.from(b));
    const mutation = fc.record({
      at: fc.nat(base.length),
      remove: fc.nat(3),
      insert: fc.constantFrom(...fragments, ...bytes, Buffer.alloc(0)),
    });
    fc.assert(
      fc.property(
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(base.length + 8), { maxLength: 5 }),
        (mutations, cuts) => {
          let raw = base;
          for (const { at, remove, insert } of mutations) {
            const from = Math.min(at, raw.length);
            raw = Buffer.concat([
              raw.subarray(0, from),
              insert,
              raw.subarray(Math.min(raw.length, from + remove)),
            ]);
          }
          if (!raw.includes('"CLOSE_ROUND"')) return;
          expect(streamedVerdict(raw, cuts)).toEqual(wholeBodyVerdict(raw));
        },
      ),
      { numRuns: 4_000 },
    );
  });

  it("agrees on closes of 300,000 bets read in 256 KiB pieces: valid, misaligned, a bad last item", () => {
    const bets = 300_000;
    const stakes = Array.from({ length: bets }, (_, i) => 1_000 + ((i * 7919) % 999_000));
    const coefficients = Array.from({ length: bets }, (_, i) =>
      i % 4 === 0 ? 0 : 1 + ((i * 31) % 900) / 100,
    );
    const piece = 256 * 1024;
    for (const [c, b] of [
      [coefficients, stakes],
      [coefficients, stakes.slice(1)],
      [coefficients, [...stakes.slice(1), -5]],
      [[...coefficients.slice(1), "1.5"], stakes],
    ]) {
      const raw = Buffer.from(JSON.stringify(closeBody(arrays(c, b))));
      const cuts = Array.from({ length: Math.floor(raw.length / piece) }, (_, i) => (i + 1) * piece);
      expect(streamedVerdict(raw, cuts)).toEqual(wholeBodyVerdict(raw));
    }
  }, 60_000);

  it("keeps no more than a close's read fields and its arrays' written-back text", () => {
    // 8 MiB of bytes that are not UTF-8 in a field the close does not read: the reader's heap does not
    // grow with them (a whole-body reader holds 24 MiB of decoded text, then a JSON string as large).
    const text = JSON.stringify(closeBody(arrays([1], [1]), { padding: "PAD" }));
    const [before, after] = text.split("PAD") as [string, string];
    const reader = new CloseReader();
    reader.write(Buffer.from(before));
    const piece = Buffer.alloc(256 * 1024, 0xff);
    for (let i = 0; i < 32; i++) reader.write(piece);
    reader.write(Buffer.from(after));
    const verdict = reader.finish();
    expect(verdict).toMatchObject({ kind: "close", roundId: "r-1" });
    expect(verdict.kind === "close" && verdict.arrays.bets.pieces.join("")).toBe("[1]");
  });

  it("each id a close reads, at its limit and one past it, in characters of 1 to 4 bytes: the same verdict, the round kept byte for byte whenever it is within its limit", () => {
    const ids = [
      ["action_id", limits.roundId],
      ["provider_tx_id", limits.closeTxId],
      ["game", limits.game],
    ] as const;
    for (const width of widths)
      for (const [field, limit] of ids)
        fc.assert(
          fc.property(stringOf(width, limit.max), stringOf(width, limit.max + 1), (max, over) => {
            const valid = arrays([1.5], [1_000]);
            const taken = agree(JSON.stringify(closeBody(valid, { [field]: max })));
            expect(taken).toMatchObject({ kind: "close" });
            const refused = agree(JSON.stringify(closeBody(valid, { [field]: over })));
            expect(refused).toEqual({
              kind: "refused-close",
              refusal: { reason: "bad_id", message: `${field}: must be at most ${limit.max} characters` },
              ...(field === "action_id" ? {} : { roundId: "r-1" }),
              ...(field === "provider_tx_id" ? {} : { providerTxId: "r-1-close-round" }),
            });
            // Refused for its arrays, a close at the limit is kept with its round and key as sent.
            const misaligned = agree(JSON.stringify(closeBody(arrays([1.5], []), { [field]: max })));
            expect(misaligned).toMatchObject({
              kind: "refused-close",
              refusal: { reason: "misaligned" },
              roundId: field === "action_id" ? max : "r-1",
              providerTxId: field === "provider_tx_id" ? max : "r-1-close-round",
            });
          }),
          { numRuns: 2 },
        );
  });

  it("keeps the head of a refused close to closeHeadChars UTF-16 units, never cutting a character in two", () => {
    // The head's last unit would be the first half of an emoji: it stops one short instead.
    for (const prefix of ["", "a"]) {
      const body = `{"action":"CLOSE_ROUND","action_id":"r","x":"${prefix}${"\u{1F600}".repeat(40_000)}"`;
      const reader = new CloseReader();
      reader.write(Buffer.from(body));
      const verdict = reader.finish();
      if (verdict.kind !== "refused-close") throw new Error(`not refused: ${verdict.kind}`);
      expect(verdict.head.isWellFormed()).toBe(true);
      expect(body.startsWith(verdict.head)).toBe(true);
      expect(closeHeadChars - verdict.head.length).toBeLessThanOrEqual(1);
      expect(verdict.roundId).toBe("r");
    }
  });
});
