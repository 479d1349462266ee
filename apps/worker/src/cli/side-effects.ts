import { createDatabase } from "@wallet/ledger/db";
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
 * Reads DATABASE_URL, REDIS_URL / REDIS_CLUSTER_NODES, REDIS_PREFIX. Exit codes: 0 done, 2 usage.
 */
const usage = "usage: side-effects republish --topic reporting --since <ISO time, e.g. 2026-11-20T00:00:00Z>";
const [command, ...rest] = process.argv.slice(2);
const option = (name: string) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 ? rest[at + 1] : undefined;
};
const topic = option("topic");
const since = new Date(option("since") ?? "");
if (command !== "republish" || topic === undefined || Number.isNaN(since.getTime())) {
  console.error(usage);
  process.exit(2);
}
if (topic !== "reporting") {
  console.error(
    `only --topic reporting is republished by hand: "${topic}" is applied inside the wallet, and its unapplied events are republished by the workers' sweep`,
  );
  process.exit(2);
}

const env = readWorkerEnv();
const database = createDatabase({ url: env.DATABASE_URL, poolSize: 1 });
const redis = createRedis(redisTarget(env), "side-effects-cli");
const queues = new SideEffectQueues(redis, env.REDIS_PREFIX);
try {
  const published = await republishReports(database.db, queues.reporting, since);
  console.log(
    `${published} round report(s) made since ${since.toISOString()} are on the reporting queue again`,
  );
} finally {
  await queues.close();
  await database.close();
  redis.disconnect();
}
