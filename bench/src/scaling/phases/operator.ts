import { startApp } from "../../processes.ts";
import type { ScalingRun, SystemA } from "../context.ts";
import { latency } from "../stats.ts";
import { appEnv } from "../system.ts";
import { describeWindow, lessBackground } from "../window.ts";
import { operatorHeaders as headers, operatorRequests, operatorToken } from "./operator-requests.ts";
import { outboxGrowth } from "./outbox-growth.ts";

/**
 * operator: the operator API beside system A, each request 200 times one after another on the data
 * the earlier phases left: latency, MySQL statements (idle background out), rows read and CPU per
 * request. Then how the outbox's growth slows the queries that scan it.
 */
export async function operatorPhase(run: ScalingRun, a: SystemA): Promise<void> {
  const { db, meter, system } = a;
  run.say("==> operator API reads (sequential)");
  const operatorApi = await startApp({
    name: "operator-api",
    cwd: "apps/operator-api",
    env: {
      ...appEnv({
        database: run.servers.databaseUrl,
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
  system.operatorUrl = operatorUrl;
  const [closedRounds] = (await db.execute(
    "SELECT round_id AS roundId FROM round_closes ORDER BY id DESC LIMIT 200",
  )) as unknown as [Array<{ roundId: string }>];
  const operator: Record<string, unknown> = {};
  const [scores] = (await db.execute(
    `SELECT COUNT(*) AS n FROM tournament_scores WHERE tournament_id = ${a.tournamentId}`,
  )) as unknown as [Array<{ n: number | string }>];
  operator.tournamentScoreRows = Number(scores[0]?.n ?? 0);
  for (const [name, request] of Object.entries(operatorRequests(a.players, closedRounds, a.tournamentId))) {
    // Ten unmeasured requests (other players and rounds) first, so the window holds no cold start.
    for (let warm = 0; warm < 10; warm++) {
      const { method, path: route, body } = request(warm + 1000);
      await fetch(`${operatorUrl}${route}`, { method, headers, body });
    }
    const count = 200;
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    const before = await meter.snap();
    for (let i = 0; i < count; i++) {
      const { method, path: route, body } = request(i);
      const started = performance.now();
      const response = await fetch(`${operatorUrl}${route}`, { method, headers, body });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
    const window = describeWindow(before, await meter.snap(), count);
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
