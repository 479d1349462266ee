import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { authRequest } from "./auth.ts";
import { balanceRequest } from "./balance.ts";
import { adjustmentRequest, createPlayerRequest } from "./operator-api.ts";
import { longestUserIds, overlongUserId } from "./testing/longest-user-ids.ts";
import { newUserToken, userIdHint, userIdMax, userTokenMax } from "./user-token.ts";
import { describeIssues } from "./validation.ts";
import { betRequest } from "./wallet-request.ts";

const newPlayer = (user_id: string) => ({ user_id, username: "wide", currency: "EUR", maxbet: 1_000 });
const bet = (user_id: string) => ({
  action: "BET",
  user_id,
  amount: 1_000,
  currency: "EUR",
  provider: "p",
  provider_tx_id: "tx-1",
  game: "crashGame",
  action_id: "r-1",
  session_token: "s-1",
});
const authOf = (userToken: string) => ({ user_token: userToken, session_token: "s-1", currency: "EUR" });

describe("user_id length: one measure, code points, everywhere", () => {
  for (const [kind, userId] of Object.entries(longestUserIds)) {
    it(`the longest ${kind} id is taken by create-player, the callbacks and adjustments, and its token by /auth`, () => {
      expect([...userId]).toHaveLength(userIdMax);
      expect(createPlayerRequest.safeParse(newPlayer(userId)).success).toBe(true);
      expect(betRequest.safeParse(bet(userId)).success).toBe(true);
      expect(balanceRequest.safeParse({ user_id: userId }).success).toBe(true);
      const adjustment = { user_id: userId, amount: 1, reason: "r", reference: "a-1" };
      expect(adjustmentRequest.safeParse(adjustment).success).toBe(true);
      const token = newUserToken(userId);
      expect(token.length).toBeLessThanOrEqual(userTokenMax);
      expect(authRequest.parse(authOf(token)).user_token).toBe(token);
      expect(userIdHint(token)).toBe(userId);
    });
  }

  it("65 code points are refused everywhere alike, however few UTF-16 units or many bytes they take", () => {
    for (const schema of [createPlayerRequest, betRequest]) {
      const input = schema === betRequest ? bet(overlongUserId) : newPlayer(overlongUserId);
      const parsed = schema.safeParse(input);
      expect(parsed.success ? "accepted" : describeIssues(parsed.error)).toBe(
        `user_id: must be at most ${userIdMax} characters`,
      );
    }
  });

  it("the token limit is the worst case: 64 code points of 4 UTF-8 bytes make a token of exactly userTokenMax (369)", () => {
    expect(userTokenMax).toBe(369);
    expect(newUserToken(longestUserIds["4-byte (emoji from U+1F600)"] ?? "")).toHaveLength(userTokenMax);
    expect(newUserToken(longestUserIds["4-byte (CJK Extension B from U+20000)"] ?? "")).toHaveLength(
      userTokenMax,
    );
  });

  it("every id create-player accepts mints a token /auth accepts (any code points, up to the bound)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: userIdMax, size: "max" }),
        (userId) => {
          fc.pre(createPlayerRequest.safeParse(newPlayer(userId)).success);
          expect(authRequest.safeParse(authOf(newUserToken(userId))).success).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
