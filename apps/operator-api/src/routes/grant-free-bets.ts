import { freeBetGrantRequest } from "@wallet/contracts/operator-api";
import { grantFreeBets } from "@wallet/ledger/verbs/grant-free-bets";
import { z } from "zod";
import { auditWrite } from "../audit-trail.ts";
import { sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import { validatedFor } from "../validate.ts";
import { userPath } from "./shapes.ts";

const request = { params: userPath, body: freeBetGrantRequest };
const grant = z.object({
  grant_id: z.int(),
  count: z.int(),
  game: z.string().nullable(),
  expires_at: z.string().nullable(),
});

/** `POST /v1/players/:user_id/free-bets`: free bets FREE_BET callbacks then spend; audited. */
export const grantFreeBetsRoute: OperatorRoute = {
  method: "post",
  path: "/v1/players/:user_id/free-bets",
  summary: "Grant free bets",
  request,
  responses: {
    201: { description: "the grant", schema: grant },
    400: "a user_id past its limit, or an invalid body",
    404: "unknown player",
  },
  async handler(req, res, deps) {
    const valid = validatedFor(req, res, deps.tenants, request.body, req.body);
    if (!valid) return;
    const { input: body, tenantId } = valid;
    const userId = pathParam(req, "user_id");
    const { grantId } = await grantFreeBets({
      ctx: deps.ctx,
      input: {
        tenantId,
        userId,
        count: body.count,
        game: body.game,
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
      },
    });
    const granted = {
      grant_id: grantId,
      count: body.count,
      game: body.game ?? null,
      expires_at: body.expires_at ?? null,
    };
    await auditWrite(deps.ctx, res, { tenantId, action: "free_bet_grant", subject: userId, detail: granted });
    sendJson(res, 201, granted);
  },
};
