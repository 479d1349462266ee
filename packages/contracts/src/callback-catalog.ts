import { z } from "zod";
import { authRequest, playerInfo } from "./auth.ts";
import { balanceRequest, balanceResult } from "./balance.ts";
import { closeRoundAck, envelope, transferResult } from "./envelope.ts";
import { type LedgerOp, ledgerJobOptions } from "./jobs.ts";
import { adjustmentRequest, adjustmentResult } from "./operator-api.ts";
import { depositRequest, withdrawRequest } from "./wallet-request.ts";

/**
 * Every ledger call in one table: the request schema the caller checks, the `data` of a 200 reply,
 * and the job options it is queued with. The gateway validates with it, the ledger parses with it,
 * the simulator (and the tests) read replies with it, so a callback's shape is written once.
 */
export const callbackCatalog = {
  auth: { path: "/auth", request: authRequest, reply: playerInfo, jobOptions: ledgerJobOptions },
  withdraw: {
    path: "/withdraw",
    request: withdrawRequest,
    reply: transferResult,
    jobOptions: ledgerJobOptions,
  },
  deposit: {
    path: "/deposit",
    request: depositRequest,
    // A CLOSE_ROUND is acknowledged without a player or balance; every other deposit is a transfer.
    reply: z.union([transferResult, closeRoundAck]),
    jobOptions: ledgerJobOptions,
  },
  balance: { path: "/balance", request: balanceRequest, reply: balanceResult, jobOptions: ledgerJobOptions },
  /** The operator's cashier adjustment: through the ledger partitions, never sent by the platform. */
  adjust: {
    path: undefined,
    request: adjustmentRequest,
    reply: adjustmentResult,
    jobOptions: ledgerJobOptions,
  },
} as const satisfies Record<
  LedgerOp,
  { path: string | undefined; request: z.ZodType; reply: z.ZodType; jobOptions: typeof ledgerJobOptions }
>;

export type CallbackReplyData<Op extends LedgerOp> = z.output<(typeof callbackCatalog)[Op]["reply"]>;

/** Any refusal: `code` equals the status; some carry data (a 402's balance, a 409's first answer). */
export const callbackRefusal = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** A reply as read: `ok` (a 200 with its operation's data) or a refusal with its envelope. */
export type ParsedReply<Op extends LedgerOp> =
  | { ok: true; status: 200; code: 200; message: string; data: CallbackReplyData<Op> }
  | { ok: false; status: number; code: number; message: string; data?: Record<string, unknown> };

/**
 * A wallet reply read against the catalog: a 200 must carry its operation's `data`, anything else
 * the envelope with `code` equal to the status. Throws (a ZodError or an Error) on any other shape.
 */
export function parseReply<Op extends LedgerOp>(op: Op, status: number, text: string): ParsedReply<Op> {
  const json: unknown = JSON.parse(text);
  if (status === 200) {
    const parsed = envelope(callbackCatalog[op].reply).parse(json);
    if (parsed.code !== 200) throw new Error(`a 200 reply carries code ${parsed.code}`);
    const data = parsed.data as CallbackReplyData<Op>;
    return { ok: true, status: 200, code: 200, message: parsed.message, data };
  }
  const parsed = callbackRefusal.parse(json);
  if (parsed.code !== status) throw new Error(`a ${status} reply carries code ${parsed.code}`);
  return { ok: false, status, ...parsed };
}
