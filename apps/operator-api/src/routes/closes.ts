import { callbackCatalog } from "@wallet/contracts/callback-catalog";
import { type CloseArrays, closeRoundTxIdMax, roundIdMax } from "@wallet/contracts/close-round";
import { envelope } from "@wallet/contracts/envelope";
import { stringifyJson } from "@wallet/contracts/json";
import { manualCloseRequest, refusedClosesQuery } from "@wallet/contracts/operator-api";
import type { TenantConfig } from "@wallet/contracts/tenants";
import { describeIssues } from "@wallet/contracts/validation";
import type { LedgerContext } from "@wallet/ledger/context";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { listRefusedCloses, recordManualClose } from "@wallet/ledger/verbs/refused-closes";
import { callLedger, type LedgerRoute } from "@wallet/queue/call-ledger";
import express, { Router } from "express";
import { z } from "zod";
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
 * second call, whatever arrays it carries, answers the first close (`replayed`, and
 * `differs_from_first` when its arrays were other than those applied). Every call answered is audited
 * in `operator_actions`.
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
    const answer = ledgerEnvelope.parse(JSON.parse(reply.body));
    const first = reply.status === 200 ? answer : firstOfConflict(reply.status, answer);
    if (!first) return sendJson(res, reply.status, answer);
    // A replay answers the round's first close, whatever this call sent: say whether what it sent
    // differs from what was applied, so an SRE never takes a replay for their arrays applied.
    const differsFromFirst =
      reply.replayed && checked.data.action === "CLOSE_ROUND"
        ? await differsFromClosed(deps.ctx, tenantId, roundId, checked.data.attributes)
        : false;
    // Every answered attempt is audited, a replay too: it is a write a token tried.
    const { resolved } = await recordManualClose(deps.ctx.db, {
      tenantId,
      roundId,
      actor: principalOf(res).actor,
      detail: {
        provider_tx_id: providerTxId,
        replayed: reply.replayed,
        differs_from_first: differsFromFirst,
        request: body,
        answer: first,
      },
    });
    sendJson(res, 200, {
      round_id: roundId,
      provider_tx_id: providerTxId,
      // A round closes once: a second call (or a close the platform sent meanwhile) answers the first.
      replayed: reply.replayed,
      differs_from_first: differsFromFirst,
      refused_closes_resolved: resolved,
      close: first.data,
    });
  });
  return router;
}

const ledgerEnvelope = envelope(z.unknown());

/**
 * The first close's answer inside the ledger's idempotency conflict: this route's key sent again with
 * other bytes (other arrays, another game) is a 409 carrying the first answer in `data`. A round
 * closes once, so that is the first close answered again, not a refusal. Undefined for any other
 * refusal (or a first answer that was not a close).
 */
function firstOfConflict(status: number, answer: z.output<typeof ledgerEnvelope>) {
  if (status !== 409) return undefined;
  const first = ledgerEnvelope.safeParse(answer.data);
  return first.success && first.data.code === 200 ? first.data : undefined;
}

/** Whether these arrays are other than those the round was closed with: then they were not applied. */
async function differsFromClosed(
  ctx: LedgerContext,
  tenantId: number,
  roundId: string,
  sent: CloseArrays,
): Promise<boolean> {
  const applied = (await roundStatus({ ctx, input: { tenantId, roundId } }))?.close;
  if (!applied) throw new Error(`round ${roundId} answered a close but has none stored`);
  // The stored arrays were written from parsed numbers the same way: equal arrays, equal text.
  return (
    stringifyJson(sent.bets) !== stringifyJson(applied.stakes) ||
    stringifyJson(sent.cashOutCoefficients) !== stringifyJson(applied.cash_out_coefficients)
  );
}
