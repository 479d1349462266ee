import { randomUUID } from "node:crypto";
import { defaultLedgerConfig, type LedgerContext } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { pingDatabase } from "@wallet/ledger/ping";
import { upsertTenant } from "@wallet/ledger/verbs/admin";
import { beat, forget } from "@wallet/queue/heartbeat";
import { PartitionQueues } from "@wallet/queue/partitions";
import { createRedis } from "@wallet/queue/redis";
import { RedisClock } from "@wallet/queue/redis-clock";
import { createLogger } from "@wallet/telemetry/logger";
import { readWorkerEnv } from "./env.ts";
import { startLedgerWorkers } from "./ledger.worker.ts";

const env = readWorkerEnv();
const workerId = `wk-${randomUUID().slice(0, 8)}`;
const logger = createLogger("worker", env.LOG_LEVEL).child({ workerId });

const database = createDatabase({
  url: env.DATABASE_URL,
  poolSize: env.DB_POOL_SIZE,
  onConnectionError: (error) => logger.error({ err: error }, "database session setup failed"),
});
const ctx: LedgerContext = {
  db: database.db,
  config: { ...defaultLedgerConfig, sessionTtlSeconds: env.SESSION_TTL_SECONDS },
};
for (const tenant of env.TENANTS) {
  await upsertTenant({
    ctx,
    input: { id: tenant.operatorId, publicKey: tenant.publicKey, name: tenant.name },
  });
}

const redis = createRedis(env.REDIS_URL, `${workerId}-cmd`);
const clock = new RedisClock(redis);
await clock.start();
const queues = new PartitionQueues(redis, env.REDIS_PREFIX, env.LEDGER_PARTITIONS);
await queues.enforceSerialization();
const workers = startLedgerWorkers({
  ctx,
  redis,
  clock,
  logger,
  prefix: env.REDIS_PREFIX,
  partitions: env.LEDGER_PARTITIONS,
  lockMs: env.JOB_LOCK_MS,
  stallCheckMs: env.JOB_STALL_CHECK_MS,
});

// Heartbeat only while the database answers: the gateways' /readyz reads it.
const heartbeat = setInterval(() => {
  pingDatabase(database.db)
    .then(() => beat(redis, env.REDIS_PREFIX, workerId, clock))
    .catch((error) => logger.warn({ err: error }, "heartbeat skipped"));
}, 1_000);
await pingDatabase(database.db);
await beat(redis, env.REDIS_PREFIX, workerId, clock);
logger.info({ partitions: env.LEDGER_PARTITIONS }, "worker serving");

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker stopping: finishing in-flight jobs");
  clearInterval(heartbeat);
  await forget(redis, env.REDIS_PREFIX, workerId).catch(() => {});
  await Promise.all(workers.map((worker) => worker.close()));
  await queues.close();
  clock.stop();
  await database.close();
  redis.disconnect();
  logger.info("worker stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
