import { randomUUID } from "node:crypto";
import type { TestPlayer } from "./players.ts";

let sequence = 0;
export function txId(prefix = "tx"): string {
  sequence += 1;
  return `${prefix}-${sequence}-${randomUUID().slice(0, 8)}`;
}

/** A BET body for the player; `over` replaces any field. */
export function betBody(player: TestPlayer, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    currency: player.currency,
    amount: 1_000,
    provider: "platform-sim",
    provider_tx_id: txId("bet"),
    game: "crashGame",
    action: "BET",
    action_id: "round-1",
    session_token: player.sessionToken,
    platform: "desktop",
    user_id: player.userId,
    attributes: [],
    ...over,
  };
}

/** A /deposit body settling `bet` with `action` (WIN, FREE_BET_WIN, ROLL_BACK). */
export function settleBody(
  player: TestPlayer,
  bet: Record<string, unknown>,
  action: "WIN" | "FREE_BET_WIN" | "ROLL_BACK",
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...betBody(player),
    action,
    amount: action === "ROLL_BACK" ? bet.amount : 2_000,
    provider_tx_id: txId(action.toLowerCase()),
    withdraw_provider_tx_id: bet.provider_tx_id,
    action_id: bet.action_id,
    game: bet.game,
    ...over,
  };
}

export function closeRoundBody(roundId: string, stakes: number[], coefficients: number[], operatorId = 1) {
  return {
    amount: 0,
    provider: "platform-sim",
    provider_tx_id: `${roundId}-${operatorId}-close-round`,
    game: "crashGame",
    action: "CLOSE_ROUND",
    action_id: roundId,
    attributes: [
      { name: "crashGameCashOutCoefficients", value: JSON.stringify(coefficients) },
      { name: "crashGameBets", value: JSON.stringify(stakes) },
    ],
  };
}
