import { limits } from "@wallet/contracts/limits";
import { expect } from "vitest";
import { bet, close, ok, placed, settle } from "./callbacks.ts";
import type { Drive, Edges, Refusal } from "./edge.ts";
import { answerOf, type EdgeWorld, freshId, type Player, pathOf } from "./edge-world.ts";

const max = limits.millis.max;
const exceeds = `exceeds ${max}, the largest exact JSON integer`;

/** A manual close of a round of its own with these arrays. */
const byHand = (world: EdgeWorld, stakes: number[], coefficients: number[]) =>
  world.manualClose(freshId("round"), { crashGameCashOutCoefficients: coefficients, crashGameBets: stakes });

/** The largest amount: bet, won, opened with, closed with (by the platform and by hand). */
export function millisEdges(world: EdgeWorld): Edges<number> {
  const newPlayer = (field: string, value: number) => ({
    username: "rich",
    currency: "EUR",
    maxbet: 1_000,
    [field]: value,
  });
  return {
    taken: async (amount) => {
      const rich = await world.player(BigInt(amount), BigInt(amount));
      const stake = bet(rich, { amount });
      expect(await ok(world, "/withdraw", stake)).toMatchObject({ new_balance: 0 });
      expect(await ok(world, "/deposit", settle(rich, stake, "WIN", { amount }))).toMatchObject({
        new_balance: amount,
      });
      const created = await world.operator("POST", "/v1/players", {
        ...newPlayer("balance", amount),
        maxbet: amount,
        minbet: amount,
        maxwin: amount,
      });
      expect(created).toMatchObject({ status: 201, json: { balance: amount } });
      await ok(world, "/deposit", close(freshId("round"), {}, [amount], [0]));
      expect((await byHand(world, [amount], [0])).status).toBe(200);
    },
    refusals: [
      ...(["BET", "WIN"] as const).map(
        (action): Refusal<number> => ({
          entry: `${action} amount`,
          answer: { status: 400, message: `amount: ${exceeds}` },
          send: async (amount) => {
            const someone = await world.someone();
            const body = bet(someone, { action, amount, withdraw_provider_tx_id: freshId("bet") });
            return answerOf(await world.callback(action === "BET" ? "/withdraw" : "/deposit", body));
          },
        }),
      ),
      ...["balance", "maxbet", "minbet", "maxwin"].map(
        (field): Refusal<number> => ({
          entry: `POST /v1/players ${field}`,
          answer: { status: 400, message: `${field}: must be at most ${max}` },
          send: async (amount) =>
            answerOf(await world.operator("POST", "/v1/players", newPlayer(field, amount))),
        }),
      ),
      {
        entry: "CLOSE_ROUND crashGameBets item",
        answer: {
          status: 400,
          message: `attributes: attribute crashGameBets must be a JSON-encoded array of integer millis (item 0: ${exceeds})`,
        },
        send: async (amount) =>
          answerOf(await world.callback("/deposit", close(freshId("round"), {}, [amount], [0]))),
      },
      {
        entry: "POST /v1/rounds/{round_id}/close crashGameBets item",
        answer: {
          status: 400,
          message: `attributes: attribute crashGameBets must be a JSON-encoded array of integer millis (item 0: ${exceeds})`,
        },
        send: async (amount) => answerOf(await byHand(world, [amount], [0])),
      },
    ],
  };
}

/** An adjustment: ±the largest amount applied, one more either way refused. */
export function adjustmentAmountEdges(world: EdgeWorld): Edges<number> {
  let userId = "";
  const adjust = (amount: number) =>
    world.operator("POST", pathOf("/v1/players/{}/adjustments", userId), {
      amount,
      reason: "limits",
      reference: freshId("ref"),
    });
  return {
    taken: async (amount) => {
      userId = await world.newPlayer({ balance: 0 });
      expect(await adjust(amount)).toMatchObject({ status: 201, json: { amount, new_balance: amount } });
      expect(await adjust(-amount)).toMatchObject({ status: 201, json: { amount: -amount, new_balance: 0 } });
    },
    refusals: [1, -1].map(
      (sign): Refusal<number> => ({
        entry: `POST /v1/players/{user_id}/adjustments amount ${sign > 0 ? "+" : "-"}`,
        answer: { status: 400, message: `amount: must be within ±${max}` },
        send: async (amount) => answerOf(await adjust(sign * amount)),
      }),
    ),
  };
}

/**
 * The largest balance: credits reach it exactly (a WIN, an adjustment); a credit past it is refused,
 * by a WIN and an adjustment alike, and moves nothing. The value driven is the credit past it.
 */
export function balanceEdges(world: EdgeWorld): Edges<number> {
  let full: Player | undefined;
  let pending: Record<string, unknown> = {};
  const past = (credit: number) =>
    `a credit of ${credit} would bring the balance to ${max - 5 + credit} millis, above ${max}, the largest balance the wallet keeps`;
  return {
    taken: async () => {
      full = await world.player(BigInt(max - 5), BigInt(max));
      const adjusted = await world.operator("POST", pathOf("/v1/players/{}/adjustments", full.userId), {
        amount: 5,
        reason: "limits",
        reference: freshId("ref"),
      });
      expect(adjusted).toMatchObject({ status: 201, json: { new_balance: max } });
      const stake = await placed(world, full, { amount: 5 });
      expect(await ok(world, "/deposit", settle(full, stake, "WIN", { amount: 5 }))).toMatchObject({
        new_balance: max,
      });
      // Left at max - 5, with a bet a WIN may still settle.
      pending = await placed(world, full, { amount: 5 });
    },
    refusals: [
      {
        entry: "WIN past the largest balance",
        stores: "idempotency_records",
        answer: { status: 400, message: `amount: ${past(6)}` },
        send: async () =>
          answerOf(await world.callback("/deposit", settle(full as Player, pending, "WIN", { amount: 6 }))),
      },
      {
        entry: "adjustment past the largest balance",
        stores: "idempotency_records",
        answer: { status: 400, message: `amount: ${past(6)}` },
        send: async () =>
          answerOf(
            await world.operator("POST", pathOf("/v1/players/{}/adjustments", (full as Player).userId), {
              amount: 6,
              reason: "limits",
              reference: freshId("ref"),
            }),
          ),
      },
    ],
  };
}

/** The largest coefficient, in a platform's close and a manual one; the least above it refused. */
export function coefficientEdges(world: EdgeWorld): Edges<number> {
  const message = (over: number) =>
    `attributes: attribute crashGameCashOutCoefficients must be a JSON-encoded array of decimal numbers (item 0: must be at most ${limits.coefficient.max}, got ${over})`;
  return {
    taken: async (coefficient) => {
      await ok(world, "/deposit", close(freshId("round"), {}, [1_000], [coefficient]));
      expect((await byHand(world, [1_000], [coefficient])).status).toBe(200);
    },
    refusals: [
      {
        entry: "CLOSE_ROUND crashGameCashOutCoefficients item",
        answer: { status: 400, message: message(1_000_000.000001) },
        send: async (over) =>
          answerOf(await world.callback("/deposit", close(freshId("round"), {}, [1_000], [over]))),
      },
      {
        entry: "POST /v1/rounds/{round_id}/close crashGameCashOutCoefficients item",
        answer: { status: 400, message: message(1_000_000.000001) },
        send: async (over) => answerOf(await byHand(world, [1_000], [over])),
      },
    ],
  };
}

/** The limits on money, each driven at its maximum and one past it. */
export const moneyDrives = (world: EdgeWorld): Drive[] => [
  { limit: "millis", by: "value", at: [max, max + 1], edges: millisEdges(world) },
  { limit: "adjustmentAmount", by: "value", at: [max, max + 1], edges: adjustmentAmountEdges(world) },
  { limit: "balance", by: "value", at: [max, max + 1], edges: balanceEdges(world) },
  { limit: "coefficient", by: "value", at: [1_000_000, 1_000_000.000001], edges: coefficientEdges(world) },
];
