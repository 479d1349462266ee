import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import { tournamentLeaderboard } from "@wallet/ledger/reads/leaderboard";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { Router } from "express";
import { z } from "zod";
import { operatorOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";

const identifier = z.string().min(1).max(128);

/** Read routes: a player's balance, loyalty and rg counters; a round's close and side effects; a leaderboard. */
export function readRoutes(ctx: LedgerContext, tenants: TenantConfig[]): Router {
  const router = Router();

  router.get("/v1/players/:user_id", async (req, res) => {
    const operator = operatorOf(req, tenants);
    if ("error" in operator) return sendError(res, 400, operator.error);
    const userId = identifier.safeParse(req.params.user_id);
    if (!userId.success) return sendError(res, 400, "user_id: must be 1 to 128 characters");
    const found = await playerSummary({ ctx, input: { tenantId: operator.tenantId, userId: userId.data } });
    if (!found) return sendError(res, 404, `player ${userId.data} not found`);
    sendJson(res, 200, found);
  });

  router.get("/v1/rounds/:round_id", async (req, res) => {
    const operator = operatorOf(req, tenants);
    if ("error" in operator) return sendError(res, 400, operator.error);
    const roundId = identifier.safeParse(req.params.round_id);
    if (!roundId.success) return sendError(res, 400, "round_id: must be 1 to 128 characters");
    const found = await roundStatus({ ctx, input: { tenantId: operator.tenantId, roundId: roundId.data } });
    if (!found) return sendError(res, 404, `round ${roundId.data} not found`);
    sendJson(res, 200, found);
  });

  router.get("/v1/tournaments/:id/leaderboard", async (req, res) => {
    const operator = operatorOf(req, tenants);
    if ("error" in operator) return sendError(res, 400, operator.error);
    const id = z.coerce.number().int().positive().safeParse(req.params.id);
    if (!id.success) return sendError(res, 400, "id: must be a positive integer");
    const found = await tournamentLeaderboard({
      ctx,
      input: { tenantId: operator.tenantId, tournamentId: id.data },
    });
    if (!found) return sendError(res, 404, `tournament ${id.data} not found`);
    sendJson(res, 200, found);
  });

  return router;
}
