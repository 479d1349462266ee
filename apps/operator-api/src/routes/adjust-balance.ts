import { stringifyJson } from "@wallet/contracts/json";
import { adjustmentRequest, adjustmentResult } from "@wallet/contracts/operator-api";
import { auditWrite } from "../audit-trail.ts";
import { ledgerAnswer } from "../ledger-answer.ts";
import { tenantOf } from "../operator.ts";
import { sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import { validated } from "../validate.ts";
import { millisField, userPath } from "./shapes.ts";

/** The body as sent: the path names the player. */
const request = { params: userPath, body: adjustmentRequest.omit({ user_id: true }) };
const applied = adjustmentResult.extend({ amount: millisField, new_balance: millisField });

/**
 * `POST /v1/players/:user_id/adjustments`: a cashier credit or debit, idempotent on `reference`, run
 * as a job on the player's ledger partition so it never interleaves with their callbacks.
 */
export const adjustBalanceRoute: OperatorRoute = {
  method: "post",
  path: "/v1/players/:user_id/adjustments",
  summary:
    "Cashier credit (amount > 0) or debit (amount < 0), idempotent on reference; runs in order with the player's callbacks",
  request,
  responses: {
    201: { description: "applied", schema: applied },
    200: { description: "replayed: the same reference and body answered before", schema: applied },
    400: "a user_id past its limit, or an invalid body",
    402: "debit beyond the balance",
    404: "unknown player",
    409: "reference reused with a different body",
    503: "retry with the same reference",
  },
  async handler(req, res, deps) {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const body = validated(res, adjustmentRequest, {
      ...(req.body as object),
      user_id: pathParam(req, "user_id"),
    });
    if (!body) return;
    const rawBody = stringifyJson({
      user_id: body.user_id,
      amount: body.amount,
      reason: body.reason,
      reference: body.reference,
    });
    const answer = await ledgerAnswer(
      res,
      deps,
      { op: "adjust", tenantId, body: { user_id: body.user_id }, rawBody },
      {
        retry: "retry with the same reference",
        accept: (status, envelope) => (status === 200 ? { data: envelope.data } : undefined),
      },
    );
    if (!answer) return;
    // Audited once, when applied: a replay (same reference and body) moved nothing.
    if (!answer.replayed)
      await auditWrite(deps.ctx, res, {
        tenantId,
        action: "adjustment",
        subject: body.user_id,
        detail: { request: body, answer: answer.value.data },
      });
    sendJson(res, answer.replayed ? 200 : 201, answer.value.data);
  },
};
