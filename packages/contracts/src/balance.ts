import { z } from "zod";
import { currency, identifier } from "./fields.ts";
import { limits } from "./limits.ts";
import { millis } from "./money.ts";

/**
 * `POST /balance` body. The contract does not show it; we accept what the other callbacks carry
 * and need the player: `user_id`, or a `session_token` bound by /auth.
 */
export const balanceRequest = z
  .object({
    user_id: identifier(limits.userId).optional(),
    session_token: identifier(limits.sessionToken).optional(),
    currency: currency.optional(),
    platform: identifier(limits.platform).optional(),
    game: identifier(limits.game).optional(),
  })
  .refine((body) => body.user_id !== undefined || body.session_token !== undefined, {
    message: "user_id or session_token is required",
  })
  // The refinement above, where a JSON Schema of the body reads it.
  .meta({ anyOf: [{ required: ["user_id"] }, { required: ["session_token"] }] });
export type BalanceRequest = z.infer<typeof balanceRequest>;

/** `data` of the `/balance` reply: the balance is `amount` (not `balance`, as in `/auth`). */
export const balanceResult = z.object({ user_id: z.string(), currency: z.string(), amount: millis });
export type BalanceResult = z.infer<typeof balanceResult>;
