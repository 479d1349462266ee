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
