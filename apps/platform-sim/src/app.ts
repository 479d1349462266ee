import { launchQuery } from "@wallet/contracts/game";
import { describeIssues } from "@wallet/contracts/validation";
import express, { type Response } from "express";
import { z } from "zod";
import { catalogFor, simGames } from "./catalog.ts";
import type { CrashEngine } from "./engine/crash-engine.ts";
import { launchPage } from "./launch-page.ts";
import type { OperatorDirectory } from "./operators.ts";
import type { Sessions } from "./sessions.ts";

export interface SimDeps {
  operators: OperatorDirectory;
  sessions: Sessions;
  engine: CrashEngine;
  publicUrl: string;
}

const playRequest = z.object({
  rounds: z.number().int().min(1).max(100_000),
  pauseMs: z.number().int().min(0).max(60_000).optional(),
  freeBetRate: z.number().min(0).max(1).optional(),
  voidRate: z.number().min(0).max(1).optional(),
  wait: z.boolean().optional(),
});

/** The platform's operator-facing endpoints (contract A1, A2), a launch page, and the engine's controls. */
export function createSimApp(deps: SimDeps) {
  const app = express();
  app.disable("x-powered-by");
  const refuse = (res: Response, status: number, error: string): void => {
    res.status(status).json({ error });
  };

  app.get("/api/v1/games", (req, res) => {
    const operatorId = Number(req.query.operatorId);
    if (typeof req.query.operatorId !== "string" || !Number.isSafeInteger(operatorId) || operatorId <= 0) {
      return refuse(res, 400, "operatorId must be a positive integer");
    }
    const caller = deps.operators.byPublicKey(req.get("x-public-key"));
    if (!caller) return refuse(res, 401, "missing or invalid X-Public-Key");
    const operator = deps.operators.byId.get(operatorId);
    if (!operator) return refuse(res, 404, `operator ${operatorId} is not registered`);
    if (operator !== caller) return refuse(res, 401, "X-Public-Key does not belong to this operator");
    res.json(catalogFor(operator.games));
  });

  app.get("/api/v1/launch/:game", (req, res) => {
    const operator = deps.operators.byPublicKey(req.get("x-public-key"));
    if (!operator) return refuse(res, 401, "missing or invalid X-Public-Key");
    const query = launchQuery.safeParse(req.query);
    if (!query.success) return refuse(res, 400, describeIssues(query.error));
    const game = catalogFor(operator.games).find((entry) => entry.id === req.params.game);
    if (!game)
      return refuse(res, 404, `game ${req.params.game} is not enabled for operator ${operator.operatorId}`);
    if (query.data.portalMode === "demo" && !game.demoAvailable)
      return refuse(res, 400, `game ${game.id} has no demo mode`);
    const session = deps.sessions.open({
      operatorId: operator.operatorId,
      userToken: query.data.userToken,
      currency: query.data.currency,
      platform: query.data.platform,
      game: game.id,
      portalMode: query.data.portalMode,
    });
    res.json({
      launch_url: `${deps.publicUrl}/play/${session.sessionToken}`,
      session_token: session.sessionToken,
    });
  });

  app.get("/play/:session", (req, res) => {
    const session = deps.sessions.get(req.params.session);
    if (!session) return refuse(res, 404, "no such session");
    const game = simGames.find((entry) => entry.id === session.game);
    res.type("html").send(launchPage(session, game?.name ?? session.game, deps.engine.stats.toJSON()));
  });

  app.post("/sim/play", express.json(), async (req, res) => {
    const request = playRequest.safeParse(req.body);
    if (!request.success) return refuse(res, 400, describeIssues(request.error));
    if (deps.engine.running) return refuse(res, 409, "a run is already in progress");
    const run = deps.engine.play(request.data);
    if (request.data.wait) {
      await run;
      res.json(await summary(deps));
      return;
    }
    run.catch(() => {});
    res.status(202).json({ started: true, rounds: request.data.rounds });
  });
  app.post("/sim/stop", (_req, res) => {
    deps.engine.stop();
    res.json({ stopping: true });
  });
  app.get("/sim/stats", async (_req, res) => {
    res.json(await summary(deps));
  });
  // Every callback's final outcome in this run, for fault-injection checks; kept out of /sim/stats (big).
  app.get("/sim/answers", (_req, res) => {
    res.json({ answers: deps.engine.stats.answers });
  });
  app.get("/healthz", (_req, res) => {
    res.json({ status: "alive" });
  });
  return app;
}

/** `GET /sim/stats` and a finished `POST /sim/play`: what the platform saw so far. */
export type SimSummary = Awaited<ReturnType<typeof summary>>;

async function summary(deps: SimDeps) {
  return {
    running: deps.engine.running,
    stats: deps.engine.stats.toJSON(),
    players: deps.sessions.crashPlayers().map((session) => ({
      operatorId: session.operatorId,
      userId: session.userId,
      lastBalance: session.lastBalance,
    })),
  };
}
