import { describe, expect, it } from "vitest";
import { authRequest } from "./auth.ts";
import { balanceRequest } from "./balance.ts";
import { gameList, launchQuery } from "./game.ts";
import { describeIssues } from "./validation.ts";
import { actionLabel, depositRequest, withdrawRequest } from "./wallet-request.ts";

const bet = {
  currency: "EUR",
  amount: 1_000,
  provider: "platform",
  provider_tx_id: "tx-1",
  game: "crashGame",
  action: "BET",
  action_id: "round-1",
  session_token: "s-1",
  platform: "desktop",
  user_id: "u-1",
  attributes: [{ name: "createDate", value: "2026-11-21T10:00:00Z" }],
};
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

function issues(
  schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? undefined : describeIssues(result.error as never);
}

describe("/withdraw bodies", () => {
  it("parse BET with its amount as bigint", () => {
    const parsed = withdrawRequest.parse(bet);
    expect(parsed.amount).toBe(1_000n);
    expect(parsed.action).toBe("BET");
  });

  it("FREE_BET must carry amount 0", () => {
    expect(withdrawRequest.parse({ ...bet, action: "FREE_BET", amount: 0 }).amount).toBe(0n);
    expect(issues(withdrawRequest, { ...bet, action: "FREE_BET", amount: 10 })).toBe(
      "amount: must be 0 for this action",
    );
  });

  it("deposit actions are not withdraw actions", () => {
    expect(issues(withdrawRequest, { ...bet, action: "WIN" })).toBe(
      "action: action must be one of BET, FREE_BET on /withdraw",
    );
  });

  it("names each missing or malformed field", () => {
    expect(issues(withdrawRequest, { ...bet, currency: "eur", user_id: "", session_token: undefined })).toBe(
      "currency: must be a 3-letter ISO currency code in upper case; session_token: is required; user_id: must not be empty",
    );
  });

  it("attributes default to an empty list", () => {
    const { attributes: _omit, ...rest } = bet;
    expect(withdrawRequest.parse(rest).attributes).toEqual([]);
  });
});

describe("/deposit bodies", () => {
  it("WIN and ROLL_BACK need withdraw_provider_tx_id; FREE_BET_WIN may omit it", () => {
    const win = { ...bet, action: "WIN", withdraw_provider_tx_id: "tx-1" };
    expect(depositRequest.parse(win).action).toBe("WIN");
    expect(issues(depositRequest, { ...win, withdraw_provider_tx_id: undefined })).toBe(
      "withdraw_provider_tx_id: is required",
    );
    expect(issues(depositRequest, { ...win, action: "ROLL_BACK", withdraw_provider_tx_id: undefined })).toBe(
      "withdraw_provider_tx_id: is required",
    );
    expect(depositRequest.parse({ ...bet, action: "FREE_BET_WIN" }).action).toBe("FREE_BET_WIN");
  });

  it("CLOSE_ROUND parses its two attributes into aligned arrays of decimals and bigint millis", () => {
    const parsed = depositRequest.parse(close);
    if (parsed.action !== "CLOSE_ROUND") throw new Error("expected CLOSE_ROUND");
    expect(parsed.attributes).toEqual({ cashOutCoefficients: [0, 1, 2.37], bets: [100n, 2_000n, 300n] });
    expect(parsed.amount).toBe(0n);
  });

  it("CLOSE_ROUND: arrays of different length are a 400", () => {
    const misaligned = {
      ...close,
      attributes: [close.attributes[0], { name: "crashGameBets", value: "[1]" }],
    };
    expect(issues(depositRequest, misaligned)).toBe(
      "attributes: crashGameCashOutCoefficients has 3 items but crashGameBets has 1; they must be aligned",
    );
  });

  it("CLOSE_ROUND: unparsable, non-array, negative or fractional values are a 400", () => {
    const withBets = (value: string) => ({
      ...close,
      attributes: [close.attributes[0], { name: "crashGameBets", value }],
    });
    const withCoefficients = (value: string) => ({
      ...close,
      attributes: [{ name: "crashGameCashOutCoefficients", value }, close.attributes[1]],
    });
    expect(issues(depositRequest, withBets("{"))).toMatch(
      /crashGameBets must be a JSON-encoded array of integer millis$/,
    );
    expect(issues(depositRequest, withBets('"100"'))).toMatch(
      /crashGameBets must be a JSON-encoded array of integer millis \(value/,
    );
    expect(issues(depositRequest, withBets("[1, 2.5, 3]"))).toMatch(
      /item 1: must be an integer number of millis, got 2.5/,
    );
    expect(issues(depositRequest, withBets("[1, -2, 3]"))).toMatch(/item 1: must not be negative/);
    expect(issues(depositRequest, withCoefficients('[1, "x", 2]'))).toMatch(
      /crashGameCashOutCoefficients .*item 1/,
    );
    expect(issues(depositRequest, withCoefficients("[1, -0.5, 2]"))).toMatch(/must not be negative/);
  });

  it("CLOSE_ROUND: exactly two attributes, no player fields, amount 0", () => {
    expect(
      issues(depositRequest, {
        ...close,
        attributes: [...close.attributes, { name: "createDate", value: "x" }],
      }),
    ).toMatch(/exactly two attributes/);
    expect(issues(depositRequest, { ...close, session_token: "s" })).toBe(
      "session_token: is not sent with CLOSE_ROUND",
    );
    expect(issues(depositRequest, { ...close, withdraw_provider_tx_id: "t" })).toBe(
      "withdraw_provider_tx_id: is not sent with CLOSE_ROUND",
    );
    expect(depositRequest.safeParse({ ...close, user_id: null, currency: "EUR" }).success).toBe(true);
    expect(issues(depositRequest, { ...close, amount: 1 })).toBe("amount: must be 0 for this action");
  });
});

describe("other shapes", () => {
  it("/auth needs user_token, session_token and an ISO currency", () => {
    expect(
      authRequest.parse({ user_token: "u", session_token: "s", currency: "EUR", platform: "mobile" })
        .currency,
    ).toBe("EUR");
    expect(issues(authRequest, { user_token: "u", currency: "EURO" })).toBe(
      "session_token: is required; currency: must be a 3-letter ISO currency code in upper case",
    );
  });

  it("/balance needs a user_id or a session_token", () => {
    expect(balanceRequest.safeParse({ user_id: "u" }).success).toBe(true);
    expect(issues(balanceRequest, { currency: "EUR" })).toBe("user_id or session_token is required");
  });

  it("the game list and the launch query follow the contract", () => {
    const gameObject = {
      id: "crashGame",
      name: "Crash",
      category: "crash",
      gameUrl: "https://platform.example/crash",
      demoAvailable: true,
      mobileSupport: true,
      freeSpinSupport: false,
      imageLink: "https://platform.example/crash.png",
    };
    expect(gameList.parse([gameObject])).toEqual([gameObject]);
    expect(gameList.safeParse([{ ...gameObject, demoAvailable: "yes" }]).success).toBe(false);
    expect(
      launchQuery.safeParse({ userToken: "t", currency: "EUR", platform: "desktop", portalMode: "fun" })
        .success,
    ).toBe(false);
  });
});

describe("actionLabel", () => {
  it("is a contract action or `none`, whatever the body holds", () => {
    expect(actionLabel({ action: "BET" })).toBe("BET");
    expect(actionLabel({ action: "CLOSE_ROUND" })).toBe("CLOSE_ROUND");
    expect(actionLabel({ user_token: "t" })).toBe("none");
    expect(actionLabel({ action: "DROP TABLE" })).toBe("none");
    expect(actionLabel(undefined)).toBe("none");
    expect(actionLabel(null)).toBe("none");
  });
});
