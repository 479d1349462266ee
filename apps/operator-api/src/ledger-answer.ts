import { closeInlineMaxBytes } from "@wallet/contracts/close-stream/close-reader";
import { envelope } from "@wallet/contracts/envelope";
import { sha256Hex } from "@wallet/contracts/hash";
import { callLedger, type LedgerCallRequest } from "@wallet/queue/call-ledger";
import type { Response } from "express";
import { z } from "zod";
import { sendError, sendJson } from "./respond.ts";
import { defaultBodyLimitBytes } from "./route.ts";
import type { RouteDeps } from "./route-deps.ts";

/** The ledger's envelope: a refusal may come without `data` (a missing player's 404). */
export const ledgerEnvelope = envelope(z.unknown().optional());
export type LedgerEnvelope = z.output<typeof ledgerEnvelope>;

export interface LedgerAnswer<T> {
  /** What `accept` made of the ledger's envelope. */
  value: T;
  /** The same key with the same bytes was answered before: this is that answer again. */
  replayed: boolean;
}

/**
 * A write through the ledger, behind its player or round on that key's partition (never side by side
 * with the platform's callbacks), answered the one way: no reply within CALLBACK_DEADLINE_MS is a
 * 503 saying how to retry (`retry`), and a reply `accept` does not take (undefined) is passed on to
 * our caller as the ledger gave it, status and envelope. Undefined when the answer has been sent.
 */
export async function ledgerAnswer<T>(
  res: Response,
  deps: RouteDeps,
  call: Omit<LedgerCallRequest, "budgetMs">,
  options: { retry: string; accept: (status: number, answer: LedgerEnvelope) => T | undefined },
): Promise<LedgerAnswer<T> | undefined> {
  // A close too large for a ledger job goes to the close intake, as the platform's would.
  const raw =
    call.op === "deposit" && call.body.action === "CLOSE_ROUND" ? Buffer.from(call.rawBody) : undefined;
  const reply =
    raw && raw.length > closeInlineMaxBytes
      ? await deps.closes.call({
          tenantId: call.tenantId,
          raw,
          bodySha256: sha256Hex(raw),
          bodyLimitBytes: defaultBodyLimitBytes,
          budgetMs: deps.deadlineMs,
        })
      : (await callLedger(deps, { ...call, budgetMs: deps.deadlineMs })).reply;
  if (!reply) {
    sendError(res, "DEADLINE_EXCEEDED", `the ledger did not answer in time; ${options.retry}`);
    return undefined;
  }
  const answer = ledgerEnvelope.parse(JSON.parse(reply.body));
  const value = options.accept(reply.status, answer);
  if (value === undefined) {
    sendJson(res, reply.status, answer);
    return undefined;
  }
  return { value, replayed: reply.replayed };
}
