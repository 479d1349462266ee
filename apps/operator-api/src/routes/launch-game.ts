import { launchResult } from "@wallet/contracts/game";
import { launchRequest } from "@wallet/contracts/operator-api";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import { launchGame } from "@wallet/platform-client/launch";
import { auditWrite } from "../audit-trail.ts";
import { sendJson } from "../respond.ts";
import { type OperatorRoute, pathParam } from "../route.ts";
import { validatedFor } from "../validate.ts";
import { userPath } from "./shapes.ts";

const request = { params: userPath, body: launchRequest };

/** `POST /v1/players/:user_id/launch`: mints a user token and launches the game on the platform. */
export const launchGameRoute: OperatorRoute = {
  method: "post",
  path: "/v1/players/:user_id/launch",
  summary:
    "Launch a game on the platform for the player; audited once launched (the game, never a token or the launch URL)",
  request,
  responses: {
    200: { description: "the platform's launch: {launch_url, session_token}", schema: launchResult },
    400: "a user_id past its limit, an invalid body, or demo mode for a game without it",
    404: "unknown player or game",
    502: "the platform refused our request",
    503: "the platform is unavailable",
  },
  async handler(req, res, deps) {
    const valid = validatedFor(req, res, deps.tenants, request.body, req.body);
    if (!valid) return;
    const { input: body, tenantId } = valid;
    const userId = pathParam(req, "user_id");
    const tenant = deps.tenants.find((entry) => entry.operatorId === tenantId);
    const { userToken, expiresAt } = await mintUserToken({
      ctx: deps.ctx,
      input: { tenantId, userId, ttlSeconds: deps.userTokenTtlSeconds },
    });
    const launched = await launchGame(
      {
        baseUrl: deps.platform.baseUrl,
        publicKey: tenant?.publicKey ?? "",
        catalog: deps.platform.catalogFor(tenantId),
        observer: deps.platform.observer,
      },
      body.game,
      {
        userToken,
        currency: body.currency,
        platform: body.platform,
        portalMode: body.portalMode,
        returnUrl: body.returnUrl,
        language: body.language,
      },
    );
    // Once launched (a refused launch handed our caller nothing): what was launched and when its user
    // token expires, never the token, the session token or the launch URL that carries it.
    await auditWrite(deps.ctx, res, {
      tenantId,
      action: "launch",
      subject: userId,
      detail: {
        game: body.game,
        currency: body.currency,
        platform: body.platform,
        portal_mode: body.portalMode,
        user_token_expires_at: expiresAt.toISOString(),
      },
    });
    sendJson(res, 200, launched);
  },
};
