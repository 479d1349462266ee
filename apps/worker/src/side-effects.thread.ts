import { parentPort, workerData } from "node:worker_threads";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { retryErrorLabel } from "@wallet/ledger/mysql-errors";
import { servingDatabase } from "@wallet/ledger/serving-database";
import { createRedis } from "@wallet/queue/redis";
import { redisTarget } from "@wallet/queue/redis-env";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { createLogger } from "@wallet/telemetry/logger";
import { startTracing } from "@wallet/telemetry/tracing";
import { tracingConfig } from "@wallet/telemetry/tracing-env";
import { readWorkerEnv } from "./env.ts";
import { forwardedCounters } from "./metrics.ts";
import { startOutboxRelay } from "./outbox.relay.ts";
import { startRetention } from "./retention.ts";
import type { ThreadMessage, ThreadRequest } from "./side-effect-path.ts";
import { startSideEffectWorkers } from "./side-effects.worker.ts";
import { testCrashAt } from "./test-crash-points.ts";

/**
 * The worker's side-effect path, on a thread of its own (`side-effect-path.ts` starts it): the
 * outbox relay and sweep, the four consumers and retention. Its event loop is not the ledger's: a
 * close of 620,000 bets reconciled here cannot delay a callback's batch, its reply or its job lock.
 * It reads the process's environment and has its own pool and Redis connection; its counters are
 * the main thread's (each increment is posted there).
 */
const port = parentPort;
if (!port) throw new Error("side-effects.thread.ts runs as a worker thread (side-effect-path.ts)");
const { workerId } = workerData as { workerId: string };
const env = readWorkerEnv();
const logger = createLogger("worker", env.LOG_LEVEL).child({ workerId, thread: "side-effects" });
const tracing = startTracing(tracingConfig(env, "wallet-worker"));
const crashAt = testCrashAt(env.TEST_CRASH_POINT);
// Fenced on its own when the server is read-only (its own role watch), as the main thread's is.
const database = servingDatabase(env, logger, {
  // The consumers' transactions (SIDE_EFFECT_CONCURRENCY per topic), the relay and retention.
  poolSize: 4 * env.SIDE_EFFECT_CONCURRENCY + 2,
  traceStatements: tracing.enabled,
});
const redis = createRedis(redisTarget(env), `${workerId}-effects`);
const queues = new SideEffectQueues(redis, env.REDIS_PREFIX);
const tell = (message: ThreadMessage) => port.postMessage(message);
// Counted on the main thread, which serves the worker's one /metrics.
const metrics = forwardedCounters(tell);
const ctx: LedgerContext = {
  db: database.db,
  batch: database.batch,
  config: {
    ...defaultLedgerConfig,
    loyaltyPointsPer1000: env.LOYALTY_POINTS_PER_1000,
    transactionRetryMs: env.LEDGER_CONFLICT_RETRY_MS,
  },
  onTransactionRetry: (errno) => metrics.transactionRetries.inc({ error: retryErrorLabel(errno) }),
};

const relay = startOutboxRelay({
  ctx,
  queues,
  logger,
  metrics,
  intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
  batchSize: env.OUTBOX_RELAY_BATCH,
  sweepEveryMs: env.OUTBOX_SWEEP_EVERY_MS,
  sweepAgeSeconds: env.OUTBOX_SWEEP_AGE_SECONDS,
  crashAt,
});
const retention = startRetention({
  db: database.db,
  reporting: queues.reporting,
  logger,
  metrics,
  everyMs: env.RETENTION_EVERY_MS,
  outboxRetentionSeconds: Math.round(env.OUTBOX_RETENTION_DAYS * 86_400),
  tableRetentionSeconds: {
    operator_actions: Math.round(env.OPERATOR_ACTIONS_RETENTION_DAYS * 86_400),
    operator_api_tokens: Math.round(env.REVOKED_TOKENS_RETENTION_DAYS * 86_400),
    refused_closes: Math.round(env.REFUSED_CLOSES_RETENTION_DAYS * 86_400),
  },
  pruneChunk: env.OUTBOX_PRUNE_CHUNK,
  prunePauseMs: env.OUTBOX_PRUNE_PAUSE_MS,
  reportingBound: { maxAgeSeconds: env.REPORTING_MAX_AGE_HOURS * 3_600, maxLength: env.REPORTING_MAX_LENGTH },
});
const consumers =
  env.SIDE_EFFECT_CONSUMERS === "on"
    ? startSideEffectWorkers({
        ctx,
        redis,
        prefix: env.REDIS_PREFIX,
        queues,
        logger,
        metrics,
        concurrency: env.SIDE_EFFECT_CONCURRENCY,
        lockMs: env.JOB_LOCK_MS,
        stallCheckMs: env.JOB_STALL_CHECK_MS,
        maxAttempts: env.SIDE_EFFECT_MAX_ATTEMPTS,
        crashAt,
      })
    : [];

async function stop(): Promise<void> {
  await Promise.all([relay.stop(), retention.stop()]);
  await Promise.all(consumers.map((consumer) => consumer.close()));
  await queues.close();
  await database.close();
  redis.disconnect();
  await tracing.shutdown();
}

port.on("message", (request: ThreadRequest) => {
  if (request.type === "stop")
    void stop()
      .catch((error: unknown) => logger.error({ err: error }, "side-effect thread stopped uncleanly"))
      .finally(() => tell({ type: "stopped" }));
});
logger.info({ consumers: env.SIDE_EFFECT_CONSUMERS }, "side-effect path serving");
