import { z } from "zod";
import { currency, identifier } from "./fields.ts";
import { limits } from "./limits.ts";
import { millis } from "./money.ts";

/** `POST /auth` body. */
export const authRequest = z.object({
  user_token: identifier(limits.userToken),
  session_token: identifier(limits.sessionToken),
  platform: identifier(limits.platform).optional(),
  currency,
});
export type AuthRequest = z.infer<typeof authRequest>;

/** `data` of the `/auth` reply as it travels: amounts are JSON integers of millis, read as bigint. */
export const playerInfo = z.object({
  user_id: z.string(),
  username: z.string(),
  balance: millis,
  currency: z.string(),
  maxbet: millis,
  minbet: millis.optional(),
  maxwin: millis.optional(),
});
export type PlayerInfo = z.infer<typeof playerInfo>;
