import { readCallback, tooLargeMessage } from "@wallet/contracts/callback-reading";
import { closeInlineMaxBytes } from "@wallet/contracts/close-stream/close-reader";
import { sha256Hex } from "@wallet/contracts/hash";
import { checkSignature, checkSignatureInSlices } from "@wallet/contracts/hmac";
import type { CallbackOp } from "@wallet/contracts/jobs";
import type { TenantConfig } from "@wallet/contracts/tenants";
import { actionLabel } from "@wallet/contracts/wallet-request";
import { callLedger, type LedgerRoute } from "@wallet/queue/call-ledger";
import type { CloseIntake } from "@wallet/queue/close-intake";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan } from "@wallet/telemetry/spans";
import type { Request, Response } from "express";
import { sendError, sendRaw } from "./envelope.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { localsOf } from "./observe.ts";

const closeRoundBytes = Buffer.from('"CLOSE_ROUND"');

export interface CallbackDeps extends LedgerRoute {
  /** Where a CLOSE_ROUND past `closeInlineMaxBytes` goes: the close intake. */
  closes: Pick<CloseIntake, "call">;
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
 * for a refused CLOSE_ROUND, which the ledger stores before its 400 (`@wallet/contracts/callback-reading`).
 */
export function callbackHandler(op: CallbackOp, deps: CallbackDeps) {
  const { metrics } = deps;
  const tooLarge = (res: Response) =>
    sendError(res, "PAYLOAD_TOO_LARGE", tooLargeMessage(deps.bodyLimitBytes));
  const refuseSignature = (res: Response, reason: string, message: string) => {
    metrics.signatureFailures.inc({ reason });
    sendError(res, "UNAUTHENTICATED", message);
  };
  return async (req: Request, res: Response): Promise<void> => {
    const started = performance.now();
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    // Past the ordinary limit only a CLOSE_ROUND (on /deposit) is read on: anything else is a 413 at
    // once, as the body parser would have answered it.
    // Only a body past a limit is searched: a callback's ordinary body pays nothing for it.
    const namesClose =
      op === "deposit" &&
      raw.length > Math.min(deps.bodyLimitBytes, closeInlineMaxBytes) &&
      raw.includes(closeRoundBytes);
    if (raw.length > deps.bodyLimitBytes && !namesClose) return tooLarge(res);
    const publicKey = req.get("x-public-key");
    if (!publicKey) return refuseSignature(res, "missing_public_key", "unknown or missing X-Public-Key");
    const tenant = deps.tenantFor(publicKey);
    if (!tenant) return refuseSignature(res, "unknown_public_key", "unknown or missing X-Public-Key");
    // A close too large to read whole is checked a slice per turn and handed to the close intake.
    const large = namesClose && raw.length > closeInlineMaxBytes;
    const { check: signature, sha256 } = await inSpan("verify signature", {}, async (span) => {
      const result = large
        ? await checkSignatureInSlices(raw, req.get("x-signature"), tenant.secretKey)
        : { check: checkSignature(raw, req.get("x-signature"), tenant.secretKey), sha256: undefined };
      span.setAttribute("wallet.signature", result.check);
      return result;
    });
    if (signature !== "ok") return refuseSignature(res, signature, "invalid or missing X-Signature");
    if (large)
      return largeClose(res, { tenantId: tenant.operatorId, raw, bodySha256: sha256 ?? "", started });

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

  /** A close past `closeInlineMaxBytes`: read, judged and stored by the close intake, never parsed here. */
  async function largeClose(
    res: Response,
    close: { tenantId: number; raw: Buffer; bodySha256: string; started: number },
  ): Promise<void> {
    localsOf(res).action = "CLOSE_ROUND";
    localsOf(res).span.setAttributes({
      "wallet.tenant_id": close.tenantId,
      "wallet.body_bytes": close.raw.length,
    });
    const reply = await deps.closes.call({
      tenantId: close.tenantId,
      raw: close.raw,
      bodySha256: close.bodySha256,
      bodyLimitBytes: deps.bodyLimitBytes,
      budgetMs: deps.deadlineMs - (performance.now() - close.started),
    });
    if (!reply) {
      metrics.deadlineExceeded.inc({ endpoint: op });
      deps.logger.warn(
        { op, tenant: close.tenantId, bytes: close.raw.length },
        "large close not answered by its deadline; the intake finishes it and its resend gets the answer",
      );
      return sendError(res, "DEADLINE_EXCEEDED", "the wallet did not answer in time; retry");
    }
    if (reply.replayed)
      metrics.replays.inc({
        endpoint: op,
        action: "CLOSE_ROUND",
        kind: reply.status === 409 ? "conflict" : "replay",
      });
    sendRaw(res, reply.status, reply.body);
  }
}
