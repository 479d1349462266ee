import { stringifyJson } from "@wallet/contracts/json";
import {
  adjustmentRequest,
  createPlayerRequest,
  freeBetGrantRequest,
  launchRequest,
  transactionsQuery,
} from "@wallet/contracts/operator-api";
import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import { playerTransactions } from "@wallet/ledger/reads/transactions";
import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { grantFreeBets } from "@wallet/ledger/verbs/grant-free-bets";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import type { GameCatalog } from "@wallet/platform-client/game-catalog";
import type { PlatformObserver } from "@wallet/platform-client/http";
import { launchGame } from "@wallet/platform-client/launch";
import { callLedger, type LedgerRoute } from "@wallet/queue/call-ledger";
import { type Response, Router } from "express";
import { auditWrite } from "../audit-trail.ts";
import { tenantOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";
import { validated } from "../validate.ts";

export interface PlayerRouteDeps extends LedgerRoute {
  ctx: LedgerContext;
  tenants: TenantConfig[];
  deadlineMs: number;
  userTokenTtlSeconds: number;
  platform: { baseUrl: string; catalogFor: (tenantId: number) => GameCatalog; observer?: PlatformObserver };
}

/** Player administration: create, mint tokens, launch, cashier adjustments, free bets, journal. */
export function playerRoutes(deps: PlayerRouteDeps): Router {
  const router = Router();
  const { ctx } = deps;
  const audit = (
    res: Response,
    tenantId: number,
    action: string,
    subject: string,
    detail: Record<string, unknown>,
  ) => auditWrite(ctx, res, { tenantId, action, subject, detail });

  router.post("/v1/players", async (req, res) => {
    const body = validated(res, createPlayerRequest, req.body);
    if (!body) return;
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const { userId } = await createPlayer({
      ctx,
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
    await audit(res, tenantId, "create_player", userId, created);
    sendJson(res, 201, created);
  });

  router.post("/v1/players/:user_id/tokens", async (req, res) => {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const minted = await mintUserToken({
      ctx,
      input: { tenantId, userId: req.params.user_id, ttlSeconds: deps.userTokenTtlSeconds },
    });
    const expiresAt = minted.expiresAt.toISOString();
    // A credential was made: the trail says when it expires, never the token.
    await audit(res, tenantId, "user_token_mint", req.params.user_id, { expires_at: expiresAt });
    sendJson(res, 201, { user_token: minted.userToken, expires_at: expiresAt });
  });

  router.post("/v1/players/:user_id/launch", async (req, res) => {
    const body = validated(res, launchRequest, req.body);
    if (!body) return;
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const tenant = deps.tenants.find((entry) => entry.operatorId === tenantId);
    const { userToken, expiresAt } = await mintUserToken({
      ctx,
      input: { tenantId, userId: req.params.user_id, ttlSeconds: deps.userTokenTtlSeconds },
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
    await audit(res, tenantId, "launch", req.params.user_id, {
      game: body.game,
      currency: body.currency,
      platform: body.platform,
      portal_mode: body.portalMode,
      user_token_expires_at: expiresAt.toISOString(),
    });
    sendJson(res, 200, launched);
  });

  router.post("/v1/players/:user_id/adjustments", async (req, res) => {
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const body = validated(res, adjustmentRequest, { ...(req.body as object), user_id: req.params.user_id });
    if (!body) return;
    // Through the player's ledger partition: never interleaved with their callbacks.
    const rawBody = stringifyJson({
      user_id: body.user_id,
      amount: body.amount,
      reason: body.reason,
      reference: body.reference,
    });
    const { reply } = await callLedger(deps, {
      op: "adjust",
      tenantId,
      body: { user_id: body.user_id },
      rawBody,
      budgetMs: deps.deadlineMs,
    });
    if (!reply)
      return sendError(
        res,
        "DEADLINE_EXCEEDED",
        "the ledger did not answer in time; retry with the same reference",
      );
    const envelope = JSON.parse(reply.body) as { code: number; message: string; data?: unknown };
    if (reply.status !== 200) return sendJson(res, reply.status, envelope);
    // Audited once, when applied: a replay (same reference and body) moved nothing.
    if (!reply.replayed)
      await audit(res, tenantId, "adjustment", body.user_id, { request: body, answer: envelope.data });
    sendJson(res, reply.replayed ? 200 : 201, envelope.data);
  });

  router.post("/v1/players/:user_id/free-bets", async (req, res) => {
    const body = validated(res, freeBetGrantRequest, req.body);
    if (!body) return;
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    const { grantId } = await grantFreeBets({
      ctx,
      input: {
        tenantId,
        userId: req.params.user_id,
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
    await audit(res, tenantId, "free_bet_grant", req.params.user_id, granted);
    sendJson(res, 201, granted);
  });

  router.get("/v1/players/:user_id/transactions", async (req, res) => {
    const query = validated(res, transactionsQuery, { limit: req.query.limit, cursor: req.query.cursor });
    if (!query) return;
    const tenantId = tenantOf(req, res, deps.tenants);
    if (tenantId === undefined) return;
    sendJson(
      res,
      200,
      await playerTransactions({ ctx, input: { tenantId, userId: req.params.user_id, ...query } }),
    );
  });

  return router;
}
