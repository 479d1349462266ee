import { bytesOf } from "@wallet/contracts/testing/limit-strings";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { expect } from "vitest";
import { type EdgeWorld, freshId, type Player, paddedTo } from "./edge-world.ts";

/** A BET of 1,000 millis in a round of its own under a fresh key; `over` replaces any field. */
export const bet = (player: Player, over: Record<string, unknown> = {}) =>
  betBody(player, { provider_tx_id: freshId("bet"), action_id: freshId("round"), ...over });

/** A FREE_BET in a round of its own (the player needs a grant). */
export const freeBet = (player: Player, over: Record<string, unknown> = {}) =>
  bet(player, { action: "FREE_BET", amount: 0, ...over });

/** A WIN, FREE_BET_WIN or ROLL_BACK of `placed` under a fresh key. */
export const settle = (
  player: Player,
  placed: Record<string, unknown>,
  action: "WIN" | "FREE_BET_WIN" | "ROLL_BACK",
  over: Record<string, unknown> = {},
) => settleBody(player, placed, action, { provider_tx_id: freshId(action.toLowerCase()), ...over });

/** A close of `round` listing one stake of 1,000 cashed out at `coefficient`; `over` replaces any field. */
export const close = (
  round: string,
  over: Record<string, unknown> = {},
  stakes = [1_000],
  coefficients = [0],
) => ({
  ...closeRoundBody(round, stakes, coefficients),
  ...over,
});

/** The same arrays of different lengths: refused (400) and stored. */
export const misaligned = (round: string, over: Record<string, unknown> = {}) =>
  close(round, over, [1_000, 5], [0]);

/** A close past the inline limit (64 KiB): read by the close intake as a stream. */
export const large = (body: Record<string, unknown>) =>
  paddedTo(body, 70_000, (bytes) => bytesOf("1-byte", bytes));

/** A callback answered 200, returning its `data`. */
export async function ok(world: EdgeWorld, path: string, body: unknown, raw?: string) {
  const answer = await world.callback(path, body, raw);
  expect({ path, status: answer.status, message: answer.json.message }).toEqual({
    path,
    status: 200,
    message: "OK",
  });
  return answer.json.data ?? {};
}

/** A BET placed (200), returned as sent. */
export async function placed(world: EdgeWorld, player: Player, over: Record<string, unknown> = {}) {
  const body = bet(player, over);
  await ok(world, "/withdraw", body);
  return body;
}
