import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { z } from "zod";
import { auditWrite } from "../audit-trail.ts";
import { tenantOf } from "../operator.ts";
import { sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import { timestampField, userPath } from "./shapes.ts";

/** `POST /v1/players/:user_id/tokens`: what a launch does, without the platform. */
export const mintUserTokenRoute: OperatorRoute = {
  method: "post",
  path: "/v1/players/:user_id/tokens",
  summary:
    "Mint a user_token (what a launch does, without the platform); audited (its expires_at, never the token)",
  request: { params: userPath },
  responses: {
    201: {
      description: "the token, for the platform's /auth",
      schema: z.object({ user_token: z.string(), expires_at: timestampField }),
    },
    400: "a user_id past its limit",
    404: "unknown player",
  },
  async handler(req, res, deps) {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const userId = pathParam(req, "user_id");
    const minted = await mintUserToken({
      ctx: deps.ctx,
      input: { tenantId, userId, ttlSeconds: deps.userTokenTtlSeconds },
    });
    const expiresAt = minted.expiresAt.toISOString();
    // A credential was made: the trail says when it expires, never the token.
    await auditWrite(deps.ctx, res, {
      tenantId,
      action: "user_token_mint",
      subject: userId,
      detail: { expires_at: expiresAt },
    });
    sendJson(res, 201, { user_token: minted.userToken, expires_at: expiresAt });
  },
};
