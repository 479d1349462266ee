import type { TenantConfig } from "@wallet/contracts/tenants";
import type { LedgerContext } from "@wallet/ledger/context";
import { tournamentLeaderboard } from "@wallet/ledger/reads/leaderboard";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import { operatorOf } from "../operator.ts";
import { sendError, sendJson } from "../respond.ts";

const identifier = z.string().min(1).max(128);

/** Read routes: a player's balance, loyalty and rg counters; a round's close and side effects; a leaderboard. */
export function readRoutes(ctx: LedgerContext, tenants: TenantConfig[]): Router {
  const router = Router();

  /** One shape for every read: which operator → the path parameter → the ledger read → 200 or 404. */
  const readRoute = <P>(
    path: string,
    param: { name: string; noun: string; schema: z.ZodType<P>; problem: string },
    read: (tenantId: number, value: P) => Promise<unknown>,
  ) =>
    router.get(path, async (req: Request, res: Response) => {
      const operator = operatorOf(req, res, tenants);
      if ("error" in operator) return sendError(res, operator.code, operator.error);
      const value = param.schema.safeParse(req.params[param.name]);
      if (!value.success) return sendError(res, "BAD_REQUEST", `${param.name}: ${param.problem}`);
      const found = await read(operator.tenantId, value.data);
      if (!found) return sendError(res, "NOT_FOUND", `${param.noun} ${String(value.data)} not found`);
      sendJson(res, 200, found);
    });

  readRoute(
    "/v1/players/:user_id",
    { name: "user_id", noun: "player", schema: identifier, problem: "must be 1 to 128 characters" },
    (tenantId, userId) => playerSummary({ ctx, input: { tenantId, userId } }),
  );
  readRoute(
    "/v1/rounds/:round_id",
    { name: "round_id", noun: "round", schema: identifier, problem: "must be 1 to 128 characters" },
    (tenantId, roundId) => roundStatus({ ctx, input: { tenantId, roundId } }),
  );
  readRoute(
    "/v1/tournaments/:id/leaderboard",
    {
      name: "id",
      noun: "tournament",
      schema: z.coerce.number().int().positive(),
      problem: "must be a positive integer",
    },
    (tenantId, tournamentId) => tournamentLeaderboard({ ctx, input: { tenantId, tournamentId } }),
  );
  return router;
}
