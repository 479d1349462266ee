import { argumentProblem, cliArguments } from "@wallet/contracts/cli-arguments";
import { readArgs } from "@wallet/ledger/cli/args";
import { createDatabase } from "@wallet/ledger/db";
import { retryDeadSideEffects } from "@wallet/ledger/side-effects/dead-letters";
import { createRedis } from "@wallet/queue/redis";
import { redisTarget } from "@wallet/queue/redis-env";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { readWorkerEnv, type WorkerEnv } from "../env.ts";
import { republishReports } from "../republish.ts";
import { lostReports } from "./lost-reports.ts";

/**
 * pnpm side-effects republish --topic reporting --since <ISO time>
 *   puts the round reports made since then back on the reporting queue (after the queue's bound
 *   dropped unread ones, or for a consumer that lost its own copy). Only `reporting` is consumed
 *   outside the wallet: the other topics' effects are applied here, and their unapplied outbox rows
 *   are republished by the workers' sweep on their own.
 * pnpm side-effects retry --dead [--operator <id>] [--round <round id>]
 *   after a fix, hands the side effects that failed for good (`wallet_side_effects_dead`) back to the
 *   workers: all of them, one operator's, or one round's. Each gets SIDE_EFFECT_MAX_ATTEMPTS again.
 * pnpm --silent side-effects lost-reports --since <ISO time>
 *   after the ledger lost its newest commits (a failover to a replica that was behind, a restore),
 *   the unread round reports of rounds closed since then whose close the ledger no longer holds: the
 *   rounds it lost whole, which `pnpm rounds:at-risk` cannot see (one JSON line each, `lost-reports.ts`).
 * Times are full ISO 8601 date-times with their zone (`2026-11-26T01:49:56Z`). Reads DATABASE_URL,
 * REDIS_URL / REDIS_CLUSTER_NODES, REDIS_PREFIX. Exit codes: 0 done; 2 usage (one line on stderr);
 * 3 republished all but some stored reports that read as no report (each named on stderr);
 * 4 lost-reports found no reporting queue under REDIS_PREFIX (it names the prefixes that hold one).
 */
const usage =
  "usage: pnpm side-effects republish --topic reporting --since <ISO time with zone, e.g. 2026-11-20T00:00:00Z> | " +
  "retry --dead [--operator <id>] [--round <round id>] | lost-reports --since <ISO time with zone>";
const [command, ...rest] = process.argv.slice(2);
const timeOption = { since: { type: "string" } } as const;

if (command === "republish") {
  const args = readArgs(rest, { topic: { type: "string" }, ...timeOption }, usage);
  const [topic, since] = [args.text("topic"), args.instant("since")];
  if (topic === undefined || since === undefined) args.refuse("give --topic and --since");
  else if (topic !== "reporting")
    args.refuse(
      `only --topic reporting is republished by hand: "${topic}" is applied inside the wallet, and its unapplied events are republished by the workers' sweep`,
    );
  else await republish(readWorkerEnv(), since);
} else if (command === "retry") {
  const args = readArgs(
    rest,
    { dead: { type: "boolean" }, operator: { type: "string" }, round: { type: "string" } },
    usage,
  );
  const operator = args.text("operator");
  const roundId = args.text("round");
  if (!args.flag("dead")) args.refuse("give --dead");
  // A round id as every callback takes it (limits.ts): up to 128 code points, so every round a BET took.
  const problem =
    argumentProblem("--operator", cliArguments.operator, operator) ??
    argumentProblem("--round", cliArguments.round, roundId);
  if (problem) args.refuse(problem);
  await retry(readWorkerEnv(), operator === undefined ? undefined : Number(operator), roundId);
} else if (command === "lost-reports") {
  const args = readArgs(rest, timeOption, usage);
  const since = args.instant("since");
  if (since === undefined) args.refuse("give --since");
  else await lostReports(readWorkerEnv(), since);
} else {
  console.error(`${command === undefined ? "no command" : `unknown command "${command}"`} (${usage})`);
  process.exitCode = 2;
}

async function republish(env: WorkerEnv, since: Date) {
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

async function retry(env: WorkerEnv, tenantId: number | undefined, roundId: string | undefined) {
  const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
  try {
    const retried = await retryDeadSideEffects(database.db, { tenantId, roundId });
    for (const effect of retried)
      console.log(
        `operator ${effect.tenantId} round ${effect.roundId} ${effect.topic}: dead after ${effect.attempts} attempt(s) (${effect.lastError}); handed back`,
      );
    console.log(`${retried.length} dead side effect(s) handed back to the workers`);
  } finally {
    await database.close();
  }
}
