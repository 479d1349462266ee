import { z } from "zod";
import { millis } from "./money.ts";

/** The wallet response envelope; `code` equals the HTTP status. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), message: z.string(), data });
export type Envelope<T> = { code: number; message: string; data?: T };

/** `data` of `/withdraw` and `/deposit` (the transfer response). */
export const transferResult = z.object({
  user_id: z.string(),
  operator_tx_id: z.string(),
  provider_tx_id: z.string(),
  new_balance: millis,
  currency: z.string(),
});
export type TransferResult = z.infer<typeof transferResult>;

/** `data` of a CLOSE_ROUND acknowledgement: no balance, no player. */
export const closeRoundAck = z.object({ operator_tx_id: z.string(), provider_tx_id: z.string() });
export type CloseRoundAck = z.infer<typeof closeRoundAck>;
