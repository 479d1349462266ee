import { sha256Hex } from "@wallet/contracts/hash";
import { checkSignature } from "@wallet/contracts/hmac";
import type { CallbackOp } from "@wallet/contracts/jobs";
import type { TenantConfig } from "@wallet/contracts/tenants";
import { actionLabel } from "@wallet/contracts/wallet-request";
import { callLedger, type LedgerRoute } from "@wallet/queue/call-ledger";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan } from "@wallet/telemetry/spans";
import type { Request, Response } from "express";
import { sendError, sendRaw } from "./envelope.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { localsOf } from "./observe.ts";
import { readCallback } from "./read-callback.ts";

const closeRoundBytes = Buffer.from('"CLOSE_ROUND"');

export interface CallbackDeps extends LedgerRoute {
  tenantFor: (publicKey: unknown) => TenantConfig | undefined;
  deadlineMs: number;
  /** Any body but a CLOSE_ROUND's is refused (413) beyond this. */
  bodyLimitBytes: number;
  logger: Logger;
  metrics: GatewayMetrics;
}

/**
 * One platform callback: verify → parse → enqueue → answer. The signature is checked on the raw
 * bytes before anything is parsed; bad input is answered 4xx here and never reaches a worker, but
 * for a refused CLOSE_ROUND, which the ledger stores before its 400 (`read-callback.ts`).
 */
export function callbackHandler(op: CallbackOp, deps: CallbackDeps) {
  const { metrics } = deps;
  const tooLarge = (res: Response) =>
    sendError(
      res,
      "PAYLOAD_TOO_LARGE",
      `body larger than ${deps.bodyLimitBytes} bytes (only a CLOSE_ROUND may be larger)`,
    );
  const refuseSignature = (res: Response, reason: string, message: string) => {
    metrics.signatureFailures.inc({ reason });
    sendError(res, "UNAUTHENTICATED", message);
  };
  return async (req: Request, res: Response): Promise<void> => {
    const started = performance.now();
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    // Past the ordinary limit only a CLOSE_ROUND is read on: anything else is a 413 at once, as the
    // body parser would have answered it.
    if (raw.length > deps.bodyLimitBytes && !raw.includes(closeRoundBytes)) return tooLarge(res);
    const publicKey = req.get("x-public-key");
    if (!publicKey) return refuseSignature(res, "missing_public_key", "unknown or missing X-Public-Key");
    const tenant = deps.tenantFor(publicKey);
    if (!tenant) return refuseSignature(res, "unknown_public_key", "unknown or missing X-Public-Key");
    const signature = await inSpan("verify signature", {}, async (span) => {
      const result = checkSignature(raw, req.get("x-signature"), tenant.secretKey);
      span.setAttribute("wallet.signature", result);
      return result;
    });
    if (signature !== "ok") return refuseSignature(res, signature, "invalid or missing X-Signature");

    const reading = readCallback(op, raw, deps.bodyLimitBytes);
    if (reading.kind === "too-large") return tooLarge(res);
    if (reading.kind === "refused") return sendError(res, "BAD_REQUEST", reading.message);
    const { body, closeRefusal, refusalReason } = reading;
    if (reading.ignored)
      deps.logger.warn(
        {
          op,
          tenant: tenant.operatorId,
          problem: reading.ignored.message.slice(0, 200),
          field: reading.ignored.field?.slice(0, 100),
        },
        "CLOSE_ROUND taken despite a flaw in a field it does not read",
      );

    const action = actionLabel(body);
    const locals = localsOf(res);
    locals.action = action;
    locals.span.setAttributes({
      "wallet.tenant_id": tenant.operatorId,
      ...(typeof body.provider_tx_id === "string" ? { "wallet.provider_tx_id": body.provider_tx_id } : {}),
      // The round a callback is about is its action_id (no callback carries a round_id).
      ...(typeof body.action_id === "string" ? { "wallet.round_id": body.action_id } : {}),
    });
    const { partition, reply } = await callLedger(deps, {
      op,
      tenantId: tenant.operatorId,
      body,
      rawBody: reading.text,
      // The hash of the bytes as received: a BOM the decoder dropped from `text` still counts.
      bodySha256: sha256Hex(raw),
      ...(closeRefusal ? { closeRefusal } : {}),
      budgetMs: deps.deadlineMs - (performance.now() - started),
    });
    if (!reply) {
      metrics.deadlineExceeded.inc({ endpoint: op });
      deps.logger.warn({ op, partition, tenant: tenant.operatorId }, "callback deadline passed");
      return sendError(res, "DEADLINE_EXCEEDED", "the wallet did not answer in time; retry");
    }
    if (refusalReason && reply.status === 400) metrics.closeRefusals.inc({ reason: refusalReason });
    if (reply.replayed)
      metrics.replays.inc({ endpoint: op, action, kind: reply.status === 409 ? "conflict" : "replay" });
    sendRaw(res, reply.status, reply.body);
  };
}
