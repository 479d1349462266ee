import { argumentProblem, cliArguments } from "@wallet/contracts/cli-arguments";
import { createDatabase } from "@wallet/ledger/db";
import { roundsWithoutClose } from "@wallet/ledger/reads/rounds-at-risk";
import { retryDeadSideEffects } from "@wallet/ledger/side-effects/dead-letters";
import { createRedis } from "@wallet/queue/redis";
import { redisTarget } from "@wallet/queue/redis-env";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { readWorkerEnv } from "../env.ts";
import { republishReports } from "../republish.ts";

/**
 * pnpm side-effects republish --topic reporting --since <ISO time>
 *   puts the round reports made since then back on the reporting queue (after the queue's bound
 *   dropped unread ones, or for a consumer that lost its own copy). Only `reporting` is consumed
 *   outside the wallet: the other topics' effects are applied here, and their unapplied outbox rows
 *   are republished by the workers' sweep on their own.
 * pnpm side-effects retry --dead [--operator <id>] [--round <round id>]
 *   after a fix, hands the side effects that failed for good (`wallet_side_effects_dead`) back to the
 *   workers: all of them, one operator's, or one round's. Each gets SIDE_EFFECT_MAX_ATTEMPTS again.
 * pnpm side-effects lost-reports --since <ISO time>
 *   after the ledger lost its newest commits (a failover to a replica that was behind, a restore),
 *   the unread round reports of rounds closed since then whose close the ledger no longer holds: the
 *   rounds it lost whole, which `pnpm rounds:at-risk` cannot see (one JSON line each).
 * Reads DATABASE_URL, REDIS_URL / REDIS_CLUSTER_NODES, REDIS_PREFIX. Exit codes: 0 done, 2 usage,
 * 3 republished all but some stored reports that read as no report (each named on stderr).
 */
const usage = [
  "usage: side-effects republish --topic reporting --since <ISO time, e.g. 2026-11-20T00:00:00Z>",
  "       side-effects retry --dead [--operator <id>] [--round <round id>]",
  "       side-effects lost-reports --since <ISO time>",
].join("\n");
const [command, ...rest] = process.argv.slice(2);
const option = (name: string) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? rest[at + 1] : undefined;
};
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

const env = readWorkerEnv();
if (command === "republish") await republish();
else if (command === "retry") await retry();
else if (command === "lost-reports") await lostReports();
else fail(usage);

async function republish() {
  const topic = option("topic");
  const since = new Date(option("since") ?? "");
  if (topic === undefined || Number.isNaN(since.getTime())) fail(usage);
  if (topic !== "reporting")
    fail(
      `only --topic reporting is republished by hand: "${topic}" is applied inside the wallet, and its unapplied events are republished by the workers' sweep`,
    );
  const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
  const redis = createRedis(redisTarget(env), "side-effects-cli");
  const queues = new SideEffectQueues(redis, env.REDIS_PREFIX);
  try {
    const { published, unreadable } = await republishReports(database.db, queues.reporting, since);
    for (const row of unreadable)
      console.error(
        `operator ${row.tenantId} round ${row.roundId}: stored report unreadable, not republished (${row.problem})`,
      );
    console.log(
      `${published} round report(s) made since ${since.toISOString()} are on the reporting queue again` +
        (unreadable.length > 0
          ? `; ${unreadable.length} unreadable stored report(s) skipped (listed above)`
          : ""),
    );
    if (unreadable.length > 0) process.exitCode = 3;
  } finally {
    await queues.close();
    await database.close();
    redis.disconnect();
  }
}

async function retry() {
  const operator = option("operator");
  const roundId = option("round");
  if (!rest.includes("--dead") || (rest.includes("--round") && roundId === undefined)) fail(usage);
  // A round id as every callback takes it: up to 128 code points, so every round a BET took.
  const problem =
    argumentProblem("--operator", cliArguments.operator, operator) ??
    argumentProblem("--round", cliArguments.round, roundId);
  if (problem) fail(`${problem}\n${usage}`);
  const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
  try {
    const retried = await retryDeadSideEffects(database.db, {
      tenantId: operator === undefined ? undefined : Number(operator),
      roundId,
    });
    for (const effect of retried)
      console.log(
        `operator ${effect.tenantId} round ${effect.roundId} ${effect.topic}: dead after ${effect.attempts} attempt(s) (${effect.lastError}); handed back`,
      );
    console.log(`${retried.length} dead side effect(s) handed back to the workers`);
  } finally {
    await database.close();
  }
}

async function lostReports() {
  const since = new Date(option("since") ?? "");
  if (Number.isNaN(since.getTime())) fail(usage);
  const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
  const redis = createRedis(redisTarget(env), "side-effects-cli");
  const queues = new SideEffectQueues(redis, env.REDIS_PREFIX);
  try {
    const reports = await queues.reporting.unreadSince(since);
    const lost = await roundsWithoutClose(
      database.db,
      reports.map((report) => ({ tenantId: report.operatorId, roundId: report.roundId })),
    );
    for (const round of lost) console.log(JSON.stringify({ ...round, reason: "report_without_close" }));
    console.error(
      `${reports.length} unread round report(s) of rounds closed since ${since.toISOString()}; ` +
        `${lost.length} of a round whose close the ledger does not hold`,
    );
  } finally {
    await queues.close();
    await database.close();
    redis.disconnect();
  }
}
