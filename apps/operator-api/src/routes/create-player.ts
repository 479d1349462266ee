import { createPlayerRequest } from "@wallet/contracts/operator-api";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { z } from "zod";
import { auditWrite } from "../audit-trail.ts";
import { sendJson } from "../respond.ts";
import type { OperatorRoute } from "../route.ts";
import { validatedFor } from "../validate.ts";
import { millisField } from "./shapes.ts";

const request = { body: createPlayerRequest };
const createdPlayer = z.object({
  user_id: z.string(),
  operator_id: z.int(),
  username: z.string(),
  currency: z.string(),
  balance: millisField,
});

/** `POST /v1/players`: a player with a wallet (and an opening balance, journalled); audited. */
export const createPlayerRoute: OperatorRoute = {
  method: "post",
  path: "/v1/players",
  summary: "Create a player with a wallet",
  request,
  responses: {
    201: { description: "created", schema: createdPlayer },
    400: "invalid body",
    409: "user_id already exists",
  },
  async handler(req, res, deps) {
    const valid = validatedFor(req, res, deps.tenants, request.body, req.body);
    if (!valid) return;
    const { input: body, tenantId } = valid;
    const { userId } = await createPlayer({
      ctx: deps.ctx,
      input: {
        tenantId,
        userId: body.user_id,
        username: body.username,
        currency: body.currency,
        balance: body.balance,
        maxbet: body.maxbet,
        minbet: body.minbet,
        maxwin: body.maxwin,
      },
    });
    const created = {
      user_id: userId,
      operator_id: tenantId,
      username: body.username,
      currency: body.currency,
      balance: body.balance ?? 0n,
    };
    await auditWrite(deps.ctx, res, { tenantId, action: "create_player", subject: userId, detail: created });
    sendJson(res, 201, created);
  },
};
