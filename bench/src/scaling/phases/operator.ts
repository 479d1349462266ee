import { startApp } from "@wallet/system-tests/harness/processes/app-process";
import { benchApp, productEnv } from "../../product.ts";
import { latency } from "../../stats.ts";
import type { ScalingRun, SystemA } from "../context.ts";
import { lessBackground } from "../window.ts";
import { meteredRequests, operatorRequests, operatorToken, warmUp } from "./operator-requests.ts";
import { outboxGrowth } from "./outbox-growth.ts";

/**
 * operator: the operator API beside system A, each request 200 times one after another on the data
 * the earlier phases left: latency, MySQL statements (idle background out), rows read and CPU per
 * request. Then whether the outbox's growth slows the queries that read it (outbox-growth.ts).
 */
export async function operatorPhase(run: ScalingRun, a: SystemA): Promise<void> {
  const { db, meter, system } = a;
  run.say("==> operator API reads (sequential)");
  const operatorApi = await startApp({
    ...benchApp,
    name: "operator-api",
    cwd: "apps/operator-api",
    env: {
      ...productEnv({
        databaseUrl: run.servers.databaseUrl,
        redisUrl: run.servers.redisUrl,
        prefix: system.prefix,
        partitions: system.partitions,
      }),
      OPERATOR_API_PORT: "0",
      OPERATOR_API_TOKEN: operatorToken,
      // Nothing listens there: none of the requests measured here calls the platform.
      PLATFORM_BASE_URL: "http://127.0.0.1:9",
    },
    ready: "operator API listening",
  });
  // On the system, so its CPU is charged as `operatorApi` and it is stopped with the system.
  system.operatorApi = operatorApi;
  const operatorUrl = `http://127.0.0.1:${operatorApi.port}`;
  const [closedRounds] = (await db.execute(
    "SELECT round_id AS roundId FROM round_closes ORDER BY id DESC LIMIT 200",
  )) as unknown as [Array<{ roundId: string }>];
  const operator: Record<string, unknown> = {};
  const [scores] = (await db.execute(
    `SELECT COUNT(*) AS n FROM tournament_scores WHERE tournament_id = ${a.tournamentId}`,
  )) as unknown as [Array<{ n: number | string }>];
  operator.tournamentScoreRows = Number(scores[0]?.n ?? 0);
  for (const [name, request] of Object.entries(operatorRequests(a.players, closedRounds, a.tournamentId))) {
    await warmUp(operatorUrl, request);
    const { times, statuses, window } = await meteredRequests(meter, operatorUrl, request, 200);
    operator[name] = {
      latency: latency(times),
      statuses,
      mysqlQuestionsPerRequest: lessBackground(window, a.idle).mysqlQuestions,
      rowsReadPerRequest: window.mysql.Rows_read,
      cpuMsPerRequest: {
        operatorApi: window.cpuMs.operatorApi,
        mariadb: window.cpuMs.mariadb,
        worker: window.cpuMs.worker,
      },
    };
  }
  operator.outboxGrowth = await outboxGrowth(a, operatorUrl, closedRounds);
  run.results.operator = operator;
  run.say(`  operator: ${JSON.stringify(operator)}`);
}
