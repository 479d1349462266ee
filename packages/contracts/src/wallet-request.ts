import { z } from "zod";
import { attributes } from "./attributes.ts";
import { closeRoundRequest } from "./close-round.ts";
import { currency, identifier } from "./fields.ts";
import { limits } from "./limits.ts";
import { millis, zeroMillis } from "./money.ts";

/** Fields every per-bet wallet request carries (`/withdraw`, and `/deposit` but CLOSE_ROUND). */
const perBetFields = {
  currency,
  amount: millis,
  provider: identifier(limits.provider),
  provider_tx_id: identifier(limits.providerTxId),
  game: identifier(limits.game),
  action_id: identifier(limits.roundId),
  session_token: identifier(limits.sessionToken),
  platform: identifier(limits.platform).optional(),
  user_id: identifier(limits.userId),
  attributes: attributes.default([]),
};

export const betRequest = z.object({ ...perBetFields, action: z.literal("BET") });
export const freeBetRequest = z.object({
  ...perBetFields,
  action: z.literal("FREE_BET"),
  amount: zeroMillis,
});

export const withdrawActions = ["BET", "FREE_BET"] as const;
export const withdrawRequest = z.discriminatedUnion("action", [betRequest, freeBetRequest], {
  error: `action must be one of ${withdrawActions.join(", ")} on /withdraw`,
});

export const winRequest = z.object({
  ...perBetFields,
  action: z.literal("WIN"),
  withdraw_provider_tx_id: identifier(limits.providerTxId),
});
export const freeBetWinRequest = z.object({
  ...perBetFields,
  action: z.literal("FREE_BET_WIN"),
  withdraw_provider_tx_id: identifier(limits.providerTxId).optional(),
});
export const rollbackRequest = z.object({
  ...perBetFields,
  action: z.literal("ROLL_BACK"),
  withdraw_provider_tx_id: identifier(limits.providerTxId),
});

export const depositActions = ["WIN", "FREE_BET_WIN", "ROLL_BACK", "CLOSE_ROUND"] as const;
export const depositRequest = z.discriminatedUnion(
  "action",
  [winRequest, freeBetWinRequest, rollbackRequest, closeRoundRequest],
  { error: `action must be one of ${depositActions.join(", ")} on /deposit` },
);

export type BetRequest = z.infer<typeof betRequest>;
export type FreeBetRequest = z.infer<typeof freeBetRequest>;
export type WithdrawRequest = z.infer<typeof withdrawRequest>;
export type WinRequest = z.infer<typeof winRequest>;
export type FreeBetWinRequest = z.infer<typeof freeBetWinRequest>;
export type RollbackRequest = z.infer<typeof rollbackRequest>;
export type DepositRequest = z.infer<typeof depositRequest>;
export type WalletAction = WithdrawRequest["action"] | DepositRequest["action"];

const walletActions = new Set<string>([...withdrawActions, ...depositActions]);

/**
 * A callback body's action as a metric label: a contract action for /withdraw and /deposit, `none`
 * otherwise. A closed set whatever the body holds, so label cardinality cannot grow with input.
 */
export function actionLabel(body: unknown): string {
  const action = (body as { action?: unknown } | null | undefined)?.action;
  return typeof action === "string" && walletActions.has(action) ? action : "none";
}

export { type CloseRoundRequest, closeRoundRequest } from "./close-round.ts";
