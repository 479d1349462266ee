import { callbackCatalog } from "@wallet/contracts/callback-catalog";
import { closeRoundTxIdMax, roundIdMax } from "@wallet/contracts/close-round";
import { stringifyJson } from "@wallet/contracts/json";
import { manualCloseRequest, refusedClosesQuery } from "@wallet/contracts/operator-api";
import type { TenantConfig } from "@wallet/contracts/tenants";
import { describeIssues } from "@wallet/contracts/validation";
import type { LedgerContext } from "@wallet/ledger/context";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { listRefusedCloses, recordManualClose } from "@wallet/ledger/verbs/refused-closes";
import { callLedger, type LedgerRoute } from "@wallet/queue/call-ledger";
import express, { Router } from "express";
import { principalOf } from "../bearer.ts";
import { tenantOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";
import { validated } from "../validate.ts";

export interface CloseRouteDeps extends LedgerRoute {
  ctx: LedgerContext;
  tenants: TenantConfig[];
  deadlineMs: number;
}

/**
 * Refused CLOSE_ROUNDs and their recovery: list them, and apply a corrected close for a round, the
 * way the platform's would have been (same partition, same ledger code; key
 * `{round_id}-{operator_id}-manual`), so its side effects run once. Idempotent: a round closes once, a
 * second call answers the first close (`replayed`). Audited in `operator_actions`.
 */
export function closeRoutes(deps: CloseRouteDeps): Router {
  const router = Router();
  router.get("/v1/refused-closes", async (req, res) => {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const query = validated(res, refusedClosesQuery, req.query);
    if (!query) return;
    const refused = await listRefusedCloses(deps.ctx.db, {
      tenantId,
      includeResolved: query.include_resolved === "true",
      limit: query.limit,
    });
    sendJson(res, 200, { refused_closes: refused });
  });

  // A close lists every bet of its round: this route takes the gateway's CLOSE_ROUND size, not 64 KiB.
  router.post("/v1/rounds/:round_id/close", express.json({ limit: "8mb" }), async (req, res) => {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const roundId = req.params.round_id ?? "";
    if (roundId.length < 1 || roundId.length > roundIdMax)
      return sendError(res, "BAD_REQUEST", `round_id: must be 1 to ${roundIdMax} characters`);
    const body = validated(res, manualCloseRequest, req.body);
    if (!body) return;
    const game = body.game ?? (await roundStatus({ ctx: deps.ctx, input: { tenantId, roundId } }))?.game;
    if (!game)
      return sendError(res, "BAD_REQUEST", "game: is required (no bet or close of this round is known)");

    // A key of its own, not the platform's: a platform close arriving later, under the contract's
    // key, is then a second close of the round and answered 200 with this one's answer (under the
    // same key with other bytes it would get a 409). At most 152 characters: it fits.
    const providerTxId = `${roundId}-${tenantId}-manual`;
    if (providerTxId.length > closeRoundTxIdMax) throw new Error("close key longer than its column");
    const close = {
      action: "CLOSE_ROUND",
      amount: 0,
      provider: "operator-api",
      provider_tx_id: providerTxId,
      game,
      action_id: roundId,
      attributes: [
        { name: "crashGameCashOutCoefficients", value: body.crashGameCashOutCoefficients },
        { name: "crashGameBets", value: body.crashGameBets },
      ],
    };
    // Checked here, so an SRE's typo is answered at once and never stored as a platform refusal.
    const checked = callbackCatalog.deposit.request.safeParse(close);
    if (!checked.success) return sendError(res, "BAD_REQUEST", describeIssues(checked.error));

    const rawBody = stringifyJson(close);
    // Behind the round, like the platform's own close of it: the two never run side by side.
    const { reply } = await callLedger(deps, {
      op: "deposit",
      tenantId,
      body: close,
      rawBody,
      budgetMs: deps.deadlineMs,
    });
    if (!reply)
      return sendError(
        res,
        "DEADLINE_EXCEEDED",
        "the ledger did not answer in time; retry (a round closes once)",
      );
    const envelope = JSON.parse(reply.body) as { code: number; message: string; data?: unknown };
    if (reply.status !== 200) return sendJson(res, reply.status, envelope);
    const { resolved } = await recordManualClose(deps.ctx.db, {
      tenantId,
      roundId,
      actor: principalOf(res).actor,
      detail: { provider_tx_id: providerTxId, replayed: reply.replayed, request: body, answer: envelope },
    });
    sendJson(res, 200, {
      round_id: roundId,
      provider_tx_id: providerTxId,
      // A round closes once: a second call (or a close the platform sent meanwhile) answers the first.
      replayed: reply.replayed,
      refused_closes_resolved: resolved,
      close: envelope.data,
    });
  });
  return router;
}
