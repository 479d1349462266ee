import { describe, expect, it } from "vitest";
import { readCallback } from "./callback-reading.ts";

const closeRoundBody = (round: string, stakes: number[], coefficients: number[]) => ({
  amount: 0,
  provider: "platform-sim",
  provider_tx_id: `${round}-1-close-round`,
  game: "crashGame",
  action: "CLOSE_ROUND",
  action_id: round,
  attributes: [
    { name: "crashGameCashOutCoefficients", value: JSON.stringify(coefficients) },
    { name: "crashGameBets", value: JSON.stringify(stakes) },
  ],
});
const close = JSON.stringify(closeRoundBody("round-7", [100, 200], [0, 2]));
const read = (bytes: string | Buffer, op: "deposit" | "withdraw" = "deposit", limit = 65_536) =>
  readCallback(op, Buffer.from(bytes), limit);
/** The text with a byte that is not UTF-8 right after `after`. */
const withInvalidByte = (text: string, after: string) => {
  const at = text.indexOf(after) + after.length;
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xc3]), Buffer.from(text.slice(at))]);
};

describe("readCallback", () => {
  it("a close whose only flaw is in a field it does not read is a call like any close, not a refusal", () => {
    for (const bytes of [
      close.replace('"provider":"platform-sim"', '"provider":"a","provider":"b"'),
      close.replace('"provider":"platform-sim"', '"provider":"\\u0032"'),
      withInvalidByte(close, '"provider":"platform-'),
    ]) {
      const reading = read(bytes);
      expect(reading).toMatchObject({ kind: "call", ignored: { field: "provider" } });
      expect(reading).not.toHaveProperty("closeRefusal");
      expect(reading).not.toHaveProperty("refusalReason");
    }
  });

  it("a close refused before its schema is a call carrying its malformed_body refusal; routed by its round", () => {
    const twice = read(close.replace('"action_id":"round-7"', '"action_id":"round-7","action_id":"round-8"'));
    expect(twice).toEqual({
      kind: "call",
      text: expect.any(String),
      body: expect.objectContaining({ action: "CLOSE_ROUND", action_id: "round-8" }),
      closeRefusal: {
        reason: "malformed_body",
        message: 'key "action_id" appears twice in one object (under the top-level key "action_id")',
      },
      refusalReason: "malformed_body",
    });
    const invalid = withInvalidByte(close, '"action_id":"');
    expect(read(invalid)).toMatchObject({
      kind: "call",
      text: invalid.toString("utf8"),
      closeRefusal: {
        reason: "malformed_body",
        message: `a string holds bytes that are not valid UTF-8 (under the top-level key "action_id"); the body is not valid UTF-8 from byte ${close.indexOf('"action_id":"') + 13} on (stored with U+FFFD in place of each invalid sequence)`,
      },
    });
    const cut = close.slice(0, close.indexOf("attributes"));
    expect(read(cut)).toEqual({
      kind: "call",
      text: cut,
      body: { action: "CLOSE_ROUND", action_id: "round-7" },
      closeRefusal: { reason: "malformed_body", message: "body is not valid JSON" },
      refusalReason: "malformed_body",
    });
  });

  it("a close refused by its schema is a call whose refusal the ledger judges", () => {
    const misaligned = JSON.stringify(closeRoundBody("round-7", [100, 200], [0]));
    expect(read(misaligned)).toEqual({
      kind: "call",
      text: misaligned,
      body: JSON.parse(misaligned),
      refusalReason: "misaligned",
    });
  });

  it("anything else refused is a plain 400 with today's messages; a large body that is no close is a 413", () => {
    const win = JSON.stringify({ ...JSON.parse(close), action: "WIN" });
    expect(read(win.replace('"provider":"platform-sim"', '"provider":"a","provider":"b"'))).toEqual({
      kind: "refused",
      message: 'key "provider" appears twice in one object',
    });
    expect(read(withInvalidByte(win, '"provider":"platform-'))).toEqual({
      kind: "refused",
      message: "body is not valid UTF-8",
    });
    expect(read("{not json")).toEqual({ kind: "refused", message: "body is not valid JSON" });
    // CLOSE_ROUND on another endpoint, or named only inside a body that is JSON, is no close.
    expect(read(close.replace("}", ',"x":1,"x":2}'), "withdraw")).toMatchObject({ kind: "refused" });
    const named = JSON.stringify({ action: "WIN", note: "CLOSE_ROUND", a: 1 }).replace(
      '"a":1',
      '"a":1,"a":2',
    );
    expect(read(named)).toMatchObject({ kind: "refused" });
    expect(read(win, "deposit", 100)).toEqual({ kind: "too-large" });
    expect(
      read(close.replace('"provider":"platform-sim"', '"provider":"\\u0032"'), "deposit", 100),
    ).toMatchObject({
      kind: "call",
    });
  });
});
