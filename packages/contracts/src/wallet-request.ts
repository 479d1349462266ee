import { z } from "zod";
import { attributeNames, attributes } from "./attributes.ts";
import { currency, identifier, omitted } from "./fields.ts";
import { millis, zeroMillis } from "./money.ts";

/** Fields every per-bet wallet request carries (`/withdraw`, and `/deposit` but CLOSE_ROUND). */
const perBetFields = {
  currency,
  amount: millis,
  provider: identifier(64),
  provider_tx_id: identifier(),
  game: identifier(),
  action_id: identifier(),
  session_token: identifier(256),
  platform: identifier(32).optional(),
  user_id: identifier(64),
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
  withdraw_provider_tx_id: identifier(),
});
export const freeBetWinRequest = z.object({
  ...perBetFields,
  action: z.literal("FREE_BET_WIN"),
  withdraw_provider_tx_id: identifier().optional(),
});
export const rollbackRequest = z.object({
  ...perBetFields,
  action: z.literal("ROLL_BACK"),
  withdraw_provider_tx_id: identifier(),
});

/** Parses one CLOSE_ROUND attribute: a JSON array carried as a string. */
function jsonArray<T extends z.ZodType>(item: T, what: string) {
  return z.string().transform((text, ctx): z.output<T>[] => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: `must be a JSON-encoded array of ${what}` });
      return z.NEVER;
    }
    const result = z.array(item).safeParse(parsed);
    if (!result.success) {
      const first = result.error.issues[0];
      const where = first?.path.length ? `item ${first.path.join(".")}` : "value";
      ctx.addIssue({
        code: "custom",
        message: `must be a JSON-encoded array of ${what} (${where}: ${first?.message})`,
      });
      return z.NEVER;
    }
    return result.data;
  });
}

const coefficient = z
  .number({ error: "must be a decimal number" })
  .finite()
  .nonnegative({ error: "must not be negative" });

const closeRoundAttributes = z
  .array(z.object({ name: z.string(), value: z.string() }))
  .superRefine((list, ctx) => {
    const names = list.map((entry) => entry.name).sort();
    const expected = [attributeNames.bets, attributeNames.cashOutCoefficients].sort();
    if (names.length !== 2 || names[0] !== expected[0] || names[1] !== expected[1]) {
      ctx.addIssue({
        code: "custom",
        message: `CLOSE_ROUND carries exactly two attributes, ${attributeNames.cashOutCoefficients} and ${attributeNames.bets}`,
      });
    }
  })
  .transform((list, ctx) => {
    const value = (name: string) => list.find((entry) => entry.name === name)?.value ?? "";
    const coefficients = jsonArray(coefficient, "decimal numbers").safeParse(
      value(attributeNames.cashOutCoefficients),
    );
    const bets = jsonArray(millis, "integer millis").safeParse(value(attributeNames.bets));
    if (!coefficients.success || !bets.success) {
      for (const [name, result] of [
        [attributeNames.cashOutCoefficients, coefficients],
        [attributeNames.bets, bets],
      ] as const) {
        for (const issue of result.error?.issues ?? [])
          ctx.addIssue({ code: "custom", message: `${name} ${issue.message}` });
      }
      return z.NEVER;
    }
    if (coefficients.data.length !== bets.data.length) {
      ctx.addIssue({
        code: "custom",
        message: `${attributeNames.cashOutCoefficients} has ${coefficients.data.length} items but ${attributeNames.bets} has ${bets.data.length}; they must be aligned`,
      });
      return z.NEVER;
    }
    return { cashOutCoefficients: coefficients.data, bets: bets.data };
  });

/** CLOSE_ROUND: a round-level notification with its own presence rules (no player, no money). */
export const closeRoundRequest = z.object({
  action: z.literal("CLOSE_ROUND"),
  amount: zeroMillis,
  provider: identifier(64),
  provider_tx_id: identifier(),
  game: identifier(),
  action_id: identifier(),
  attributes: closeRoundAttributes,
  currency: currency.optional(),
  platform: identifier(32).optional(),
  session_token: omitted("is not sent with CLOSE_ROUND"),
  user_id: omitted("is not sent with CLOSE_ROUND; the close covers all of the operator's players"),
  withdraw_provider_tx_id: omitted("is not sent with CLOSE_ROUND"),
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
export type CloseRoundRequest = z.infer<typeof closeRoundRequest>;
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
