import { redisNames } from "@wallet/contracts/jobs";
import { liveWorkers } from "@wallet/queue/heartbeat";
import { PartitionQueues } from "@wallet/queue/partitions";
import { createRedis } from "@wallet/queue/redis";
import { RedisClock } from "@wallet/queue/redis-clock";
import { redisTarget } from "@wallet/queue/redis-env";
import { readWorkerEnv } from "../env.ts";

/**
 * The partition count a Redis prefix runs with (docs/scaling.md, "Changing the partition count"):
 *   pnpm partitions status       recorded count, live workers, unfinished jobs per partition
 *   pnpm partitions set <count>  records a new count, only when no worker is live and no job is left
 * Reads REDIS_URL / REDIS_CLUSTER_NODES / REDIS_PREFIX (and LEDGER_PARTITIONS when none is recorded).
 * Exit codes: 0 done, 1 refused (the state says why), 2 usage.
 */
const [command, value] = process.argv.slice(2);
const target = Number(value);
if (
  command !== "status" &&
  !(command === "set" && Number.isInteger(target) && target >= 1 && target <= 1024)
) {
  console.error("usage: partitions status | partitions set <count 1..1024>");
  process.exit(2);
}

const env = readWorkerEnv();
const redis = createRedis(redisTarget(env), "partitions-cli");
const clock = new RedisClock(redis);
let exitCode = 0;
try {
  await clock.start();
  const key = redisNames(env.REDIS_PREFIX).partitionCount;
  const recorded = await redis.get(key);
  const current = recorded === null ? env.LEDGER_PARTITIONS : Number(recorded);
  const workers = await liveWorkers(redis, env.REDIS_PREFIX, clock);
  const queues = new PartitionQueues(redis, env.REDIS_PREFIX, current);
  const unfinished = await queues.unfinished();
  await queues.close();
  const busy = unfinished.flatMap((jobs, partition) => (jobs > 0 ? [{ partition, jobs }] : []));
  const state = {
    prefix: env.REDIS_PREFIX,
    recorded: recorded === null ? null : current,
    liveWorkers: workers,
    busy,
  };
  if (command === "status") {
    console.log(JSON.stringify(state, null, 2));
  } else if (workers.length > 0 || busy.length > 0) {
    // Jobs left on the old partitions would run beside the same players' jobs on the new ones.
    console.error(
      `refused: ${workers.length} live worker(s) and ${busy.length} partition(s) with unfinished jobs. ` +
        "Stop the gateways, let the workers drain every partition, stop the workers, then run this again.",
    );
    console.error(JSON.stringify(state, null, 2));
    exitCode = 1;
  } else {
    await redis.set(key, String(target));
    console.log(
      `${env.REDIS_PREFIX} now runs with ${target} partitions (was ${current}); start workers and gateways with LEDGER_PARTITIONS=${target}`,
    );
  }
} finally {
  clock.stop();
  redis.disconnect();
}
process.exit(exitCode);
