import fc from "fast-check";

// The fuzz's bodies. Every identity in them is made up: no body can name a real player.

export const endpoints = ["/auth", "/withdraw", "/deposit", "/balance"] as const;
export type Endpoint = (typeof endpoints)[number];

const ghost = (prefix: string) => fc.uuid().map((id) => `${prefix}-${id}`);
const perBet = fc.record({
  currency: fc.constantFrom("EUR", "USD"),
  amount: fc.nat(10_000),
  provider: fc.constant("platform-sim"),
  provider_tx_id: ghost("fuzz-tx"),
  game: fc.constant("crashGame"),
  action_id: ghost("fuzz-round"),
  session_token: ghost("ghost-session"),
  platform: fc.constantFrom("desktop", "mobile"),
  user_id: ghost("ghost-user"),
  attributes: fc.constant([{ name: "createDate", value: "2026-11-21T10:00:00Z" }]),
});
/** Valid-looking bodies of each callback, with the endpoint they belong to. */
const template: fc.Arbitrary<{ path: Endpoint; body: Record<string, unknown> }> = fc.oneof(
  fc.record({
    path: fc.constant("/auth" as const),
    body: fc.record({
      user_token: ghost("ghost-token"),
      session_token: ghost("ghost-session"),
      platform: fc.constant("desktop"),
      currency: fc.constant("EUR"),
    }),
  }),
  fc.record({
    path: fc.constant("/balance" as const),
    body: fc.oneof(
      fc.record({ user_id: ghost("ghost-user"), currency: fc.constant("EUR") }),
      fc.record({ session_token: ghost("ghost-session") }),
    ),
  }),
  fc.record({
    path: fc.constant("/withdraw" as const),
    body: fc.tuple(perBet, fc.constantFrom("BET", "FREE_BET")).map(([bet, action]) => ({ ...bet, action })),
  }),
  fc.record({
    path: fc.constant("/deposit" as const),
    body: fc
      .tuple(perBet, fc.constantFrom("WIN", "FREE_BET_WIN", "ROLL_BACK"), ghost("fuzz-bet"))
      .map(([bet, action, withdrawTx]) => ({ ...bet, action, withdraw_provider_tx_id: withdrawTx })),
  }),
  fc.record({
    path: fc.constant("/deposit" as const),
    body: ghost("fuzz-round").map((round) => ({
      amount: 0,
      provider: "platform-sim",
      provider_tx_id: `${round}-1-close-round`,
      game: "crashGame",
      action: "CLOSE_ROUND",
      action_id: round,
      attributes: [
        { name: "crashGameCashOutCoefficients", value: "[0, 2.5]" },
        { name: "crashGameBets", value: "[100, 200]" },
      ],
    })),
  }),
);

/** `arbitrary` with this probability, null otherwise. */
export function sometimes<T>(probability: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  const weight = Math.round(probability * 1_000);
  return fc.oneof({ weight: 1_000 - weight, arbitrary: fc.constant(null) }, { weight, arbitrary });
}

/** Spliced into the JSON text as written, for what JSON.stringify cannot write. */
const rawText = (text: string) => ({ rawText: text });
const wrongValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, 0, -1, 1.5, "", [], {}, "EUR", "BET"),
  fc.integer({ min: 100, max: 12_000 }).map((length) => "x".repeat(length)),
  fc.integer({ min: 100, max: 4_000 }).map((depth) => rawText(`${"[".repeat(depth)}${"]".repeat(depth)}`)),
  fc.constantFrom("9007199254740993", "1e400", "-0", "1e21", "-1e400", "0.5", "1E3").map(rawText),
);
const fieldName = fc.oneof(
  fc.constantFrom(
    "amount",
    "currency",
    "user_id",
    "session_token",
    "user_token",
    "action",
    "provider_tx_id",
    "attributes",
  ),
  fc.string({ maxLength: 12 }),
);
const fieldEdit = fc.oneof(
  fc.record({ key: fieldName, value: wrongValue }),
  fc.record({ key: fieldName, value: fc.constant(undefined) }),
);
/** Edits of the JSON text itself: what a serializer never writes but an attacker does. */
const textEdit: fc.Arbitrary<(text: string) => string> = fc.oneof(
  fc.constant((text: string) => text),
  fc
    .constantFrom("amount", "user_id", "action", "currency", "provider_tx_id")
    .map((key) => (text: string) => text.replace("{", `{"${key}":1,`)),
  fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype", "\\u005f_proto__"), fc.nat()).map(
    ([key, nth]) =>
      (text: string) =>
        insertAfterNth(text, "{", nth, `"${key}":{"x":1},`),
  ),
  fc.nat().map((at) => (text: string) => escapeCharAt(text, at)),
  fc
    .constantFrom("\\u00e9", "\\ud83d\\ude00", "\\u0000", "\\ud800")
    .map((written) => (text: string) => text.replace(/"([a-z])/, `"${written}$1`)),
);

function insertAfterNth(text: string, char: string, nth: number, insert: string): string {
  const positions = [...text].flatMap((c, index) => (c === char ? [index] : []));
  if (positions.length === 0) return text;
  const at = (positions[nth % positions.length] ?? 0) + 1;
  return text.slice(0, at) + insert + text.slice(at);
}

/** Writes the ASCII letter at (or after) `at` as a `\u00XX` escape, wherever it stands. */
function escapeCharAt(text: string, at: number): string {
  for (let i = at % Math.max(text.length, 1); i < text.length; i++) {
    if (/[A-Za-z]/.test(text[i] ?? "")) {
      const escaped = `\\u00${(text.codePointAt(i) ?? 0).toString(16)}`;
      return text.slice(0, i) + escaped + text.slice(i + 1);
    }
  }
  return text;
}

const invalidUtf8Sequences = [
  [0xff],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0x80],
  [0xf8, 0x88, 0x80, 0x80],
];

/** A mutated valid-looking body: its endpoint and its bytes. */
const mutatedBody = fc
  .record({
    template,
    edits: fc.array(fieldEdit, { maxLength: 3 }),
    textEdit,
    invalidUtf8: sometimes(1 / 8, fc.tuple(fc.constantFrom(...invalidUtf8Sequences), fc.nat())),
  })
  .map(({ template: { path, body }, edits, textEdit: editText, invalidUtf8 }) => {
    const edited: Record<string, unknown> = { ...body };
    const fragments: string[] = [];
    for (const { key, value } of edits) {
      if (value === undefined) delete edited[key];
      else if (typeof value === "object" && value !== null && "rawText" in value) {
        edited[key] = `@@raw-${fragments.length}@@`;
        fragments.push(String(value.rawText));
      } else edited[key] = value;
    }
    let text = JSON.stringify(edited);
    fragments.forEach((fragment, index) => {
      text = text.replace(`"@@raw-${index}@@"`, fragment);
    });
    let bytes = Buffer.from(editText(text), "utf8");
    if (invalidUtf8) {
      const [sequence, at] = invalidUtf8;
      const cut = at % (bytes.length + 1);
      bytes = Buffer.concat([bytes.subarray(0, cut), Buffer.from(sequence), bytes.subarray(cut)]);
    }
    return { naturalPath: path as Endpoint | undefined, bytes };
  });

/** Any body at all: mostly mutated valid-looking ones, some arbitrary JSON, bytes and text, and none. */
export const anyBody = fc.oneof(
  { weight: 6, arbitrary: mutatedBody },
  {
    weight: 2,
    arbitrary: fc
      .jsonValue({ maxDepth: 4 })
      .map((value) => ({ naturalPath: undefined, bytes: Buffer.from(JSON.stringify(value) ?? "null") })),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 3_000 })
      .map((bytes) => ({ naturalPath: undefined, bytes: Buffer.from(bytes) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: "binary", maxLength: 300 })
      .map((text) => ({ naturalPath: undefined, bytes: Buffer.from(text) })),
  },
  { weight: 1, arbitrary: fc.constant({ naturalPath: undefined, bytes: Buffer.alloc(0) }) },
);
