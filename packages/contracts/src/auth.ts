import { z } from "zod";
import { currency, identifier } from "./fields.ts";
import { userTokenMax } from "./user-token.ts";

/** `POST /auth` body. */
export const authRequest = z.object({
  user_token: identifier(Math.max(256, userTokenMax)),
  session_token: identifier(256),
  platform: identifier(32).optional(),
  currency,
});
export type AuthRequest = z.infer<typeof authRequest>;

/** `data` of the `/auth` response. Amounts are bigint millis inside the service. */
export const playerInfo = z.object({
  user_id: z.string(),
  username: z.string(),
  balance: z.bigint(),
  currency: z.string(),
  maxbet: z.bigint(),
  minbet: z.bigint().optional(),
  maxwin: z.bigint().optional(),
});
export type PlayerInfo = z.infer<typeof playerInfo>;
