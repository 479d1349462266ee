import { randomUUID } from "node:crypto";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { isDatabaseRefused, retryErrorLabel } from "@wallet/ledger/mysql-errors";
import { pingDatabase } from "@wallet/ledger/ping";
import { servingDatabase } from "@wallet/ledger/serving-database";
import { deadSideEffects } from "@wallet/ledger/side-effects/dead-letters";
import { outboxBacklog } from "@wallet/ledger/side-effects/outbox-queries";
import { upsertTenant } from "@wallet/ledger/verbs/upsert-tenant";
import { AckLog } from "@wallet/queue/ack-log";
import { Dispatcher } from "@wallet/queue/dispatcher";
import { beat, forget } from "@wallet/queue/heartbeat";
import { openReplies } from "@wallet/queue/open-dispatcher";
import { PartitionCountMismatch, PartitionQueues } from "@wallet/queue/partitions";
import { createRedis } from "@wallet/queue/redis";
import { RedisClock } from "@wallet/queue/redis-clock";
import { redisTarget } from "@wallet/queue/redis-env";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { createLogger } from "@wallet/telemetry/logger";
import { serveMetrics } from "@wallet/telemetry/metrics-server";
import { startTracing } from "@wallet/telemetry/tracing";
import { tracingConfig } from "@wallet/telemetry/tracing-env";
import { bootStep } from "./boot-step.ts";
import { startCloseIntake } from "./close-intake.worker.ts";
import { readWorkerEnv } from "./env.ts";
import { startLedgerWorkers } from "./ledger.worker.ts";
import { createWorkerMetrics } from "./metrics.ts";
import { partitionJobsAtOnce } from "./planted-bugs.ts";
import { startSideEffectPath } from "./side-effect-path.ts";
import { ledgerTestHooks, testCrashAt } from "./test-crash-points.ts";

const env = readWorkerEnv();
const workerId = `wk-${randomUUID().slice(0, 8)}`;
const logger = createLogger("worker", env.LOG_LEVEL).child({ workerId });
const tracing = startTracing(tracingConfig(env, "wallet-worker"));

const crashAt = testCrashAt(env.TEST_CRASH_POINT);
const database = servingDatabase(env, logger, {
  poolSize: env.DB_POOL_SIZE,
  traceStatements: tracing.enabled,
});
const redis = createRedis(redisTarget(env), `${workerId}-cmd`);
const queues = new PartitionQueues(redis, env.REDIS_PREFIX, env.LEDGER_PARTITIONS);
const sideEffectQueues = new SideEffectQueues(redis, env.REDIS_PREFIX);
const metrics = createWorkerMetrics({
  queueDepths: () => queues.depths(),
  outboxBacklog: () => outboxBacklog(database.db),
  deadSideEffects: () => deadSideEffects(database.db),
  reportingBacklog: () => sideEffectQueues.reporting.backlog(),
  reportingMaxLength: env.REPORTING_MAX_LENGTH,
  databaseFenced: database.fenced,
  databaseSessionRefused: database.sessionRefused,
});
const ctx: LedgerContext = {
  db: database.db,
  batch: database.batch,
  config: {
    ...defaultLedgerConfig,
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    transactionRetryMs: env.LEDGER_CONFLICT_RETRY_MS,
    loyaltyPointsPer1000: env.LOYALTY_POINTS_PER_1000,
  },
  onTransactionRetry: (errno) => metrics.transactionRetries.inc({ error: retryErrorLabel(errno) }),
  testHooks: ledgerTestHooks(env, crashAt),
};
for (const tenant of env.TENANTS) {
  await bootStep(
    "upsert tenant",
    () =>
      upsertTenant({
        ctx,
        input: { id: tenant.operatorId, publicKey: tenant.publicKey, name: tenant.name },
      }),
    logger,
  );
}

const clock = new RedisClock(redis);
await clock.start();
// One job of a partition at a time, unless the test-only planted bug `early-partition-unlock` is on.
const jobsAtOnce = partitionJobsAtOnce(env.TEST_PLANTED_BUG);
await queues.enforceSerialization(jobsAtOnce);
// Before any answer: from the start it records, the log holds every callback answered 200.
const answers = new AckLog(redis, env.REDIS_PREFIX, { seconds: env.ACK_LOG_SECONDS, clock });
await answers.recordStart();
// The close intake closes each large close's round through its partition, as any caller would: it
// waits for the answer on this worker's own reply channel (its queues and clock are the ones above).
const replyChannel = await openReplies({
  redis: redisTarget(env),
  prefix: env.REDIS_PREFIX,
  clientId: workerId,
});
const ledgerRoute = new Dispatcher(queues, replyChannel.replies, clock);
const closeIntake = startCloseIntake({
  ctx,
  redis,
  prefix: env.REDIS_PREFIX,
  route: { dispatcher: ledgerRoute, partitions: env.LEDGER_PARTITIONS },
  logger,
  metrics,
  concurrency: env.CLOSE_INTAKE_CONCURRENCY,
  holdAfterReadMs: env.TEST_HOLD_CLOSE_INTAKE_MS,
});
const workers = startLedgerWorkers({
  ctx,
  redis,
  clock,
  answers,
  logger,
  metrics,
  prefix: env.REDIS_PREFIX,
  partitions: env.LEDGER_PARTITIONS,
  lockMs: env.JOB_LOCK_MS,
  stallCheckMs: env.JOB_STALL_CHECK_MS,
  pollMs: env.JOB_POLL_MS,
  maxBatch: env.LEDGER_MAX_BATCH,
  replyBeforeCommit: env.TEST_PLANTED_BUG === "reply-before-commit",
});

// /healthz and /readyz on the metrics port: ready while the last MySQL and Redis checks (every heartbeat) passed.
const metricsServer = await serveMetrics(metrics.registry, env.METRICS_PORT, {
  readiness: () => metrics.dependencies.readiness(["mysql", "redis"]),
  host: env.METRICS_HOST,
});
// Heartbeat only while the database answers: the gateways' /readyz reads it. Every few beats the
// partitions' global concurrency is set again: it lives in Redis, and a Redis that lost its data
// would otherwise run a player's callbacks side by side until the next restart. So is the
// acknowledgement log's start: after such a loss the log holds everything only from then on.
let beats = 0;
/** Set once shutdown begins (declared before the heartbeat that reads it). */
let stopping = false;
const heartbeat = setInterval(() => {
  beats += 1;
  // Each dependency checked on its own, so one being down does not hide the other's state.
  metrics.dependencies.check("redis", () => redis.time()).catch(() => {});
  metrics.dependencies
    .check("mysql", () => pingDatabase(database.db))
    // A beat whose check was in flight when the worker began to stop would re-add the heartbeat that
    // `forget` removed (a stopped worker counted by /readyz for 15 s); after `stopping` none is sent,
    // and one sent before precedes `forget` on the same connection.
    .then(() => (stopping ? undefined : beat(redis, env.REDIS_PREFIX, workerId, clock)))
    .then(() =>
      beats % 5 === 0
        ? Promise.all([queues.enforceSerialization(jobsAtOnce), answers.recordStart()])
        : undefined,
    )
    .catch((error) => {
      if (isDatabaseRefused(error)) return; // logged once, when fenced or its session refused
      if (!(error instanceof PartitionCountMismatch)) return logger.warn({ err: error }, "heartbeat skipped");
      // Someone changed the count under a running worker: its partitions no longer mean the same players.
      logger.fatal({ err: error }, "partition count changed; stopping");
      void shutdown("partition count changed");
    });
}, 1_000);
await metrics.dependencies.check("mysql", () => pingDatabase(database.db));
await metrics.dependencies.check("redis", () => beat(redis, env.REDIS_PREFIX, workerId, clock));
logger.info(
  {
    partitions: env.LEDGER_PARTITIONS,
    ackLogSeconds: env.ACK_LOG_SECONDS,
    sideEffects: env.SIDE_EFFECT_CONSUMERS,
    // How far this host's clock is from Redis time: deadlines are read in Redis time, so a drifted
    // host still keeps them; a large offset is worth fixing (NTP) all the same.
    clockOffsetMs: clock.offset,
    clockRttMs: clock.rttMs,
    metricsPort: metricsServer.port,
    tracing: tracing.enabled,
  },
  "worker serving",
);

// The side-effect path (relay, sweep, consumers, retention) starts once the partitions are served
// and "worker serving" is logged, on a thread of its own: no side effect can take the ledger's event
// loop (a 620,000-bet close once stalled every tenant's callbacks), and a relay with a backlog (or a
// test's TEST_CRASH_POINT) must not delay or kill the worker before it says it serves.
const sideEffects = startSideEffectPath({
  workerId,
  logger,
  metrics,
  onCrash: (code) => void shutdown("side-effect thread exited", code),
});
async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker stopping: finishing in-flight jobs");
  clearInterval(heartbeat);
  await forget(redis, env.REDIS_PREFIX, workerId).catch(() => {});
  await Promise.all([sideEffects.stop(), closeIntake.close(), ...workers.map((worker) => worker.close())]);
  await Promise.all([queues.close(), sideEffectQueues.close(), replyChannel.close()]);
  metricsServer.server.close();
  clock.stop();
  await database.close();
  redis.disconnect();
  await tracing.shutdown();
  logger.info("worker stopped");
  process.exit(exitCode);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
