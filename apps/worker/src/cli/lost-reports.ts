import { createDatabase } from "@wallet/ledger/db";
import { categoryCounts, formatAtRiskLine, knownUserIds } from "@wallet/ledger/reads/at-risk-line";
import { roundKey, roundPlayers } from "@wallet/ledger/reads/round-players";
import { roundRows, roundsWithoutClose } from "@wallet/ledger/reads/rounds-at-risk";
import { createRedis } from "@wallet/queue/redis";
import { redisTarget } from "@wallet/queue/redis-env";
import { prefixesWithReportingQueue, reportingQueueExists } from "@wallet/queue/reporting-queue";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import type { WorkerEnv } from "../env.ts";

/** Exit code when REDIS_PREFIX holds no reporting queue at all: its "no unread report" would mean nothing. */
export const noReportingQueueExit = 4;

/**
 * `pnpm --silent side-effects lost-reports --since <point>`: after the ledger lost its newest commits,
 * each unread round report of a round closed since the point whose close the ledger no longer holds:
 * the rounds it lost whole, which `pnpm rounds:at-risk` cannot see. One line each, in the shape of
 * `rounds:at-risk`'s (`category: "lost"`, `reason: "report_without_close"`), the players taken from
 * what the ledger still holds of the round (its bets, loyalty awards): a report names none.
 */
export async function lostReports(env: WorkerEnv, since: Date): Promise<void> {
  const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
  const redis = createRedis(redisTarget(env), "side-effects-cli");
  const queues = new SideEffectQueues(redis, env.REDIS_PREFIX);
  try {
    if (!(await reportingQueueExists(redis, env.REDIS_PREFIX))) {
      const others = (await prefixesWithReportingQueue(redis)).filter(
        (prefix) => prefix !== env.REDIS_PREFIX,
      );
      console.error(
        `REDIS_PREFIX "${env.REDIS_PREFIX}" holds no reporting queue: no report was ever published under it, so none ` +
          "can be read there; set REDIS_PREFIX to the wallet's own " +
          (others.length > 0
            ? `(prefixes holding one: ${others.map((prefix) => `"${prefix}"`).join(", ")})`
            : "(no prefix on this Redis holds one: is REDIS_URL the wallet's Redis?)"),
      );
      process.exitCode = noReportingQueueExit;
      return;
    }
    const reports = await queues.reporting.unreadSince(since);
    const lost = await roundsWithoutClose(
      database.db,
      reports.map((report) => ({ tenantId: report.operatorId, roundId: report.roundId })),
    );
    const [players, rows] = await Promise.all([
      roundPlayers(database.db, lost),
      roundRows(database.db, lost),
    ]);
    const createdAt = new Map(rows.map((row) => [roundKey(row), row.createdAt]));
    const reportOf = new Map(
      reports.map((report) => [roundKey({ tenantId: report.operatorId, roundId: report.roundId }), report]),
    );
    const lines = lost.map((round) => {
      const report = reportOf.get(roundKey(round));
      return {
        category: "lost" as const,
        reason: "report_without_close",
        operatorId: round.tenantId,
        roundId: round.roundId,
        ...knownUserIds(
          players.get(roundKey(round)) ?? [],
          "a round report names no player, and the ledger holds nothing of this round: its players are in the platform's round history",
        ),
        createdAt: createdAt.get(roundKey(round))?.toISOString() ?? null,
        closedAt: report?.closedAt ?? null,
        evidence: `its round report (${report?.eventId}) is unread on the reporting queue, and the ledger holds no CLOSE_ROUND: the close was acknowledged and lost`,
      };
    });
    for (const line of lines) console.log(formatAtRiskLine(line));
    console.error(
      `${categoryCounts(lines)}. ${reports.length} unread round report(s) under REDIS_PREFIX "${env.REDIS_PREFIX}" ` +
        `of rounds closed since ${since.toISOString()}; ${lost.length} of a round whose close the ledger does not hold`,
    );
  } finally {
    await queues.close();
    await database.close();
    redis.disconnect();
  }
}
