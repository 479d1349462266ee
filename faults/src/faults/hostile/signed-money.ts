import { maxBalanceMillis } from "@wallet/contracts/money";
import fc from "fast-check";

/** One well-signed request of the generative run: a callback to the gateway or an operator adjustment. */
export type SignedRequest =
  | { to: "gateway"; path: "/withdraw" | "/deposit" | "/balance" | "/auth"; body: Record<string, unknown> }
  | { to: "operator"; path: string; body: Record<string, unknown> };

export interface MoneyPlayer {
  userId: string;
  sessionToken: string;
  userToken: string;
}

const max = Number(maxBalanceMillis);

/**
 * Amounts where the limits are: nothing, a milli, ordinary stakes, and the edges of the balance
 * range, so a run keeps a balance near 2^53 − 1 and tries to cross it from both sides.
 */
const amount = fc.constantFrom(0, 1, 1_000, 5_000, 20_000, max - 1, max);

/**
 * Requests a hostile but well-signed platform (and operator) could send for `players`, ids drawn
 * from small pools so that they collide: a WIN for a bet that is someone else's or unknown, a
 * ROLL_BACK before its BET (a tombstone) and then the BET from another player, a resend with
 * other bytes, an adjustment past the limit.
 */
export function signedMoney(
  players: MoneyPlayer[],
  operatorId: number,
  prefix: string,
): fc.Arbitrary<SignedRequest[]> {
  const player = fc.constantFrom(...players);
  // Bets from a small pool, so settlements find them (or find someone else's); settlements from a
  // larger one, so most are new and a few collide with another body.
  const betId = fc.integer({ min: 0, max: 9 }).map((n) => `${prefix}-bet-${n}`);
  const settleId = fc.integer({ min: 0, max: 59 }).map((n) => `${prefix}-settle-${n}`);
  const round = fc.integer({ min: 0, max: 2 }).map((n) => `${prefix}-round-${n}`);
  const base = (
    who: MoneyPlayer,
    action: string,
    provider_tx_id: string,
    action_id: string,
    money: number,
  ) => ({
    currency: "EUR",
    amount: money,
    provider: "platform-sim",
    provider_tx_id,
    game: "crashGame",
    action,
    action_id,
    session_token: who.sessionToken,
    platform: "desktop",
    user_id: who.userId,
    attributes: [],
  });
  const bet = fc.tuple(player, betId, round, amount).map(
    ([who, id, r, money]): SignedRequest => ({
      to: "gateway",
      path: "/withdraw",
      body: base(who, "BET", id, r, money),
    }),
  );
  const settle = fc.tuple(player, fc.constantFrom("WIN", "ROLL_BACK"), settleId, betId, round, amount).map(
    ([who, action, id, settled, r, money]): SignedRequest => ({
      to: "gateway",
      path: "/deposit",
      body: { ...base(who, action, id, r, money), withdraw_provider_tx_id: settled },
    }),
  );
  const balance = player.map(
    (who): SignedRequest => ({
      to: "gateway",
      path: "/balance",
      body: { user_id: who.userId, currency: "EUR" },
    }),
  );
  const adjust = fc
    .tuple(player, fc.constantFrom(1, 5_000, -1, -5_000, max, -max), fc.integer({ min: 0, max: 19 }))
    .map(
      ([who, money, n]): SignedRequest => ({
        to: "operator",
        path: `/v1/players/${encodeURIComponent(who.userId)}/adjustments?operatorId=${operatorId}`,
        body: { amount: money, reason: "generative", reference: `${prefix}-ref-${n}` },
      }),
    );
  // A round played as a healthy platform would, then settled: the WIN or refund that reaches the
  // limit from below (the other requests mostly collide, which is their own test).
  const played = fc
    .tuple(player, fc.integer({ min: 0, max: 10_000 }), fc.constantFrom("WIN", "ROLL_BACK"), amount, amount)
    .map(([who, n, action, stake, payout]): SignedRequest[] => {
      const id = `${prefix}-played-${n}`;
      const r = `${prefix}-played-round-${n}`;
      return [
        { to: "gateway", path: "/withdraw", body: base(who, "BET", id, r, stake) },
        {
          to: "gateway",
          path: "/deposit",
          body: { ...base(who, action, `${id}-settle`, r, payout), withdraw_provider_tx_id: id },
        },
      ];
    });
  // /auth with a real token, a stranger's session, a look-alike or blank session, another currency.
  const auth = fc
    .tuple(player, player, fc.constantFrom("own", "other", "blank", "padded"), fc.constantFrom("EUR", "USD"))
    .map(
      ([who, other, session, currency]): SignedRequest => ({
        to: "gateway",
        path: "/auth",
        body: {
          user_token: who.userToken,
          session_token: {
            own: who.sessionToken,
            other: other.sessionToken,
            blank: "   ",
            padded: `${who.sessionToken} `,
          }[session],
          platform: "desktop",
          currency,
        },
      }),
    );
  const one = (arbitrary: fc.Arbitrary<SignedRequest>) => arbitrary.map((request) => [request]);
  return fc.oneof(
    { arbitrary: one(bet), weight: 2 },
    { arbitrary: one(settle), weight: 2 },
    { arbitrary: played, weight: 3 },
    { arbitrary: one(balance), weight: 1 },
    { arbitrary: one(auth), weight: 1 },
    { arbitrary: one(adjust), weight: 2 },
  );
}
