import { describe, expect, it } from "vitest";
import {
  closeIdsOf,
  closeReadFields,
  closeRefusal,
  closeRefusalReason,
  fieldsACloseIgnores,
  malformedClose,
  storedCloseIds,
} from "./close-refusal.ts";
import { codePointLength, limits } from "./limits.ts";
import { parseJsonBytesStrict } from "./safe-json.ts";
import { closeRoundRequest, depositRequest } from "./wallet-request.ts";

const close = (over: Record<string, unknown>, coefficients = "[0, 2]", stakes = "[100, 200]") => ({
  action: "CLOSE_ROUND",
  provider_tx_id: "r-1-close-round",
  action_id: "r",
  game: "crashGame",
  attributes: [
    { name: "crashGameCashOutCoefficients", value: coefficients },
    { name: "crashGameBets", value: stakes },
  ],
  ...over,
});

function reasonOf(body: unknown) {
  const result = depositRequest.safeParse(body);
  if (result.success) throw new Error("expected a refusal");
  return closeRefusalReason(result.error);
}

describe("closeRefusalReason", () => {
  it("names each way a close cannot be understood", () => {
    expect(reasonOf(close({ provider_tx_id: "" }))).toBe("bad_id");
    expect(reasonOf(close({ action_id: "r".repeat(129) }))).toBe("bad_id");
    expect(reasonOf(close({ game: undefined }))).toBe("bad_id");
    expect(reasonOf(close({ attributes: [] }))).toBe("missing_array");
    expect(reasonOf(close({}, "[0, 2"))).toBe("unreadable_array");
    expect(reasonOf(close({}, '[0, "2"]'))).toBe("unreadable_array");
    expect(reasonOf(close({}, "[0, 1e21]"))).toBe("out_of_range");
    expect(reasonOf(close({}, "[0, 2]", "[100, -1]"))).toBe("out_of_range");
    expect(reasonOf(close({}, "[0, 2]", "[100, 9007199254740993]"))).toBe("out_of_range");
    expect(reasonOf(close({}, "[0]"))).toBe("misaligned");
  });
});

describe("a close refused or let through by the strict JSON check", () => {
  const text = JSON.stringify(close({ provider: "platform-sim" }));
  const read = (bytes: Buffer | string) =>
    parseJsonBytesStrict(Buffer.from(bytes), { ignoredFields: fieldsACloseIgnores });

  it("every field the close's schema reads refuses a flaw; currency, only stored beside it, is the one exception", () => {
    const schemaFields = Object.keys(closeRoundRequest.shape).filter((field) => field !== "currency");
    expect([...closeReadFields].sort()).toEqual(schemaFields.sort());
  });

  it("a flaw only in a field the close does not read lets it through; in one it reads, or in a WIN, it refuses", () => {
    const flawed = [
      text.replace('"provider":"platform-sim"', '"provider":"a","provider":"b"'),
      text.replace('"provider":"platform-sim"', '"provider":"\\u0032"'),
      text.replace('"amount":0', '"amount":0,"extra":{"__proto__":{"x":1}}'),
    ];
    for (const body of flawed) {
      const result = read(body);
      expect([body, result.ok, depositRequest.safeParse(result.ok && result.value).success]).toEqual([
        body,
        true,
        true,
      ]);
    }
    const invalidUtf8 = Buffer.concat([
      Buffer.from(text.slice(0, text.indexOf("platform-sim"))),
      Buffer.from([0xff]),
      Buffer.from(text.slice(text.indexOf("platform-sim"))),
    ]);
    expect(read(invalidUtf8)).toMatchObject({ ok: true, ignored: { field: "provider" } });

    const refused = read(text.replace('"action_id":"r"', '"action_id":"r","action_id":"s"'));
    expect(refused).toMatchObject({ ok: false, field: "action_id" });
    expect(read(text.replace('"crashGameBets"', '"crashGame\\u0042ets"'))).toMatchObject({
      ok: false,
      field: "attributes",
    });
    const win = JSON.stringify({ action: "WIN", provider: "a" }).replace(
      '"provider":"a"',
      '"provider":"a","provider":"b"',
    );
    expect(read(win)).toMatchObject({ ok: false, field: "provider" });
  });

  it("a malformed close is refused as malformed_body, saying what and where, and the first invalid byte", () => {
    expect(
      malformedClose({ message: 'key "action_id" appears twice in one object', field: "action_id" }),
    ).toEqual({
      reason: "malformed_body",
      message: 'key "action_id" appears twice in one object (under the top-level key "action_id")',
    });
    const refusal = malformedClose({ message: "body is not valid JSON" }, 17);
    expect(refusal.message).toBe(
      "body is not valid JSON; the body is not valid UTF-8 from byte 17 on (stored with U+FFFD in place of each invalid sequence)",
    );
    expect(closeRefusal.parse(refusal)).toEqual(refusal);
    expect(malformedClose({ message: "x".repeat(5_000) }).message).toHaveLength(2_000);
    // Cut at 2,000 characters, never inside one: no lone surrogate to store as U+FFFD.
    const wide = malformedClose({ message: "\u{1F600}".repeat(5_000) }).message;
    expect([codePointLength(wide), wide.length, wide.isWellFormed()]).toEqual([2_000, 4_000, true]);
  });

  it("its round and key come from a lenient reading: JSON.parse's, or the first written in text that is not JSON", () => {
    expect(closeIdsOf({ action_id: "r", provider_tx_id: "r-1-close-round" }, "")).toEqual({
      roundId: "r",
      providerTxId: "r-1-close-round",
    });
    expect(closeIdsOf({ action_id: 7 }, '{"action_id":"no"}')).toEqual({});
    const cut =
      '{"provider_tx_id" : "r\\u00e9-1-close-round","action":"CLOSE_ROUND","action_id":"r\\"q","attri';
    expect(closeIdsOf(undefined, cut)).toEqual({ roundId: 'r"q', providerTxId: "ré-1-close-round" });
    expect(closeIdsOf(undefined, '"CLOSE_ROUND" "action_id": 12')).toEqual({});
    // The longest id, every unit written as an escape, is found (at 300 steps, 60 emoji were not);
    // a run longer than that (or a string never closed) is not taken for one.
    const emoji = "\u{1F600}".repeat(limits.closeTxId.max);
    const escaped = JSON.stringify(emoji).replace(
      /[\ud800-\udfff]/g,
      (unit) => `\\u${unit.charCodeAt(0).toString(16)}`,
    );
    expect(escaped).toHaveLength(limits.closeTxId.max * 12 + 2);
    expect(closeIdsOf(undefined, `"action_id":${escaped} trailing`)).toEqual({ roundId: emoji });
    const steps = limits.closeTxId.max * 10;
    expect(closeIdsOf(undefined, `"action_id":"${"x".repeat(steps + 1)}"`)).toEqual({});
    expect(closeIdsOf(undefined, `"action_id":"${"x".repeat(steps)}"`)).toEqual({
      roundId: "x".repeat(steps),
    });
  });

  it("keeps a round and key only within their limits, counted in code points: what the manual close takes", () => {
    const round = "\u{1F600}".repeat(limits.roundId.max); // 256 UTF-16 units
    const key = "\u{1F600}".repeat(limits.closeTxId.max);
    expect(storedCloseIds({ roundId: round, providerTxId: key })).toEqual({
      roundId: round,
      providerTxId: key,
    });
    expect(storedCloseIds({ roundId: `${round}a`, providerTxId: `${key}a` })).toEqual({
      roundId: null,
      providerTxId: null,
    });
    expect(storedCloseIds({ roundId: " \t", providerTxId: "" })).toEqual({
      roundId: null,
      providerTxId: null,
    });
    expect(storedCloseIds({})).toEqual({ roundId: null, providerTxId: null });
  });
});
