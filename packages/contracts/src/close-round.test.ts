import { describe, expect, it } from "vitest";
import { closeRoundTxIdMax, roundIdMax } from "./close-round.ts";
import { describeIssues } from "./validation.ts";
import { depositRequest, withdrawRequest } from "./wallet-request.ts";

const close = {
  amount: 0,
  provider: "platform",
  provider_tx_id: "round-1-7-close-round",
  game: "crashGame",
  action: "CLOSE_ROUND",
  action_id: "round-1",
  attributes: [
    { name: "crashGameCashOutCoefficients", value: "[0, 1.00, 2.37]" },
    { name: "crashGameBets", value: "[100, 2000, 300]" },
  ],
};
const withBets = (value: string) => ({
  ...close,
  attributes: [close.attributes[0], { name: "crashGameBets", value }],
});
const withCoefficients = (value: string) => ({
  ...close,
  attributes: [{ name: "crashGameCashOutCoefficients", value }, close.attributes[1]],
});

function parsed(body: unknown) {
  const result = depositRequest.parse(body);
  if (result.action !== "CLOSE_ROUND") throw new Error("expected CLOSE_ROUND");
  return result;
}
function issues(body: unknown) {
  const result = depositRequest.safeParse(body);
  return result.success ? undefined : describeIssues(result.error);
}

describe("CLOSE_ROUND parsing", () => {
  it("reads its two attributes into aligned arrays of decimals and bigint millis", () => {
    expect(parsed(close).attributes).toEqual({
      cashOutCoefficients: [0, 1, 2.37],
      bets: [100n, 2_000n, 300n],
    });
  });

  it("ignores what it does not need: other attributes, player fields, amount, an unknown currency", () => {
    const busy = {
      ...close,
      amount: 5,
      currency: "eur",
      platform: "x".repeat(500),
      user_id: "someone",
      session_token: "   ",
      withdraw_provider_tx_id: 12,
      attributes: [
        { name: "createDate", value: "2026-11-21T10:00:00Z" },
        ...close.attributes,
        { name: "crashGameBets", value: "[100, 2000, 300]" }, // the same twice is no ambiguity
        { name: "somethingNew", value: { nested: true } },
        "not even an object",
      ],
    };
    const result = parsed(busy);
    expect(result.attributes).toEqual(parsed(close).attributes);
    expect(result).not.toHaveProperty("user_id");
    expect(result).not.toHaveProperty("amount");
    expect(result.currency).toBeUndefined();
    expect(parsed({ ...close, currency: "EUR" }).currency).toBe("EUR");
  });

  it("refuses only what cannot be understood: arrays missing, unreadable, ambiguous or misaligned", () => {
    expect(issues({ ...close, attributes: [close.attributes[0]] })).toBe(
      "attributes: attribute crashGameBets is required",
    );
    expect(issues({ ...close, attributes: undefined })).toBe("attributes: must be an array of {name, value}");
    expect(
      issues({ ...close, attributes: [...close.attributes, { name: "crashGameBets", value: "[1,2,4]" }] }),
    ).toBe("attributes: attribute crashGameBets appears twice with different values");
    expect(issues(withBets("[1]"))).toBe(
      "attributes: crashGameCashOutCoefficients has 3 items but crashGameBets has 1; they must be aligned",
    );
    expect(issues(withBets("{"))).toMatch(/crashGameBets must be a JSON-encoded array of integer millis$/);
    expect(issues(withBets('"100"'))).toMatch(
      /crashGameBets must be a JSON-encoded array of integer millis$/,
    );
    expect(issues(withBets("[1, 2.5, 3]"))).toMatch(/item 1: must be an integer number of millis, got 2.5/);
    expect(issues(withBets("[1, -2, 3]"))).toMatch(/item 1: must not be negative/);
    expect(issues(withCoefficients('[1, "x", 2]'))).toMatch(
      /crashGameCashOutCoefficients must be .*item 1: must be a decimal number, got string/,
    );
    expect(issues(withCoefficients("[1, -0.5, 2]"))).toMatch(/item 1: must not be negative, got -0.5/);
    // Both arrays wrong: both named, so the sender fixes both at once.
    expect(issues({ ...close, attributes: [] })).toBe(
      "attributes: attribute crashGameCashOutCoefficients is required; attribute crashGameBets is required",
    );
  });

  it("coefficients are read as written, from 0 to 1,000,000; outside is a 400", () => {
    const coefficients = (text: string) => parsed(withCoefficients(text)).attributes.cashOutCoefficients;
    expect(coefficients("[1.5e2, 150.00, 0e9]")).toEqual([150, 150, 0]);
    expect(coefficients("[1000000, 0.00000001, 999999.99999999]")).toEqual([
      1_000_000, 1e-8, 999_999.99999999,
    ]);
    expect(coefficients("[-0, 1.10000000000000000000, 1000000.000000000000000]")).toEqual([
      -0, 1.1, 1_000_000,
    ]);
    // What a platform's floating-point arithmetic writes is understood, not refused.
    expect(coefficients("[2.3000000000000003, 1.123456789, 1e-99999999999999999999]")).toEqual([
      2.3000000000000003, 1.123456789, 0,
    ]);
    // To 8 places, what payouts are computed at, the number gives the written decimal back.
    expect(coefficients("[999999.99999999, 1.23456789, 0]").map((c) => c.toFixed(8))).toEqual([
      "999999.99999999",
      "1.23456789",
      "0.00000000",
    ]);
    for (const [text, message] of [
      ["[1e21, 1, 1]", "item 0: must be at most 1000000, got 1e21"],
      ["[1, 1000000.00000001, 1]", "item 1: must be at most 1000000, got 1000000.00000001"],
      ["[1, 1, 10000000]", "item 2: must be at most 1000000, got 10000000"],
      ["[1e999999999, 1, 1]", "item 0: must be at most 1000000, got 1e999999999"],
      ["[1e99999999999999999999, 1, 1]", "item 0: must be at most 1000000, got 1e99999999999999999999"],
      ["[1, -3e2, 1]", "item 1: must not be negative, got -3e2"],
    ] as const) {
      expect(issues(withCoefficients(text))).toContain(message);
    }
  });

  it("every round a BET accepts can be closed: the close key of the longest round id and operator id fits", () => {
    const longest = "r".repeat(roundIdMax);
    const bet = {
      currency: "EUR",
      amount: 1,
      provider: "p",
      provider_tx_id: "t",
      game: "g",
      action: "BET",
      action_id: longest,
      session_token: "s",
      user_id: "u",
    };
    expect(withdrawRequest.safeParse(bet).success).toBe(true);
    expect(withdrawRequest.safeParse({ ...bet, action_id: `${longest}r` }).success).toBe(false);
    const key = `${longest}-${Number.MAX_SAFE_INTEGER}-close-round`;
    expect(key).toHaveLength(closeRoundTxIdMax);
    expect(parsed({ ...close, action_id: longest, provider_tx_id: key }).provider_tx_id).toBe(key);
    expect(issues({ ...close, provider_tx_id: `${key}x` })).toBe(
      `provider_tx_id: must be at most ${closeRoundTxIdMax} characters`,
    );
  });
});
