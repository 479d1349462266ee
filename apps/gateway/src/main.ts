import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { redisNames } from "@wallet/contracts/jobs";
import { Dispatcher } from "@wallet/queue/dispatcher";
import { liveWorkers } from "@wallet/queue/heartbeat";
import { PartitionQueues } from "@wallet/queue/partitions";
import { createRedis } from "@wallet/queue/redis";
import { RedisClock } from "@wallet/queue/redis-clock";
import { ReplyChannel } from "@wallet/queue/reply-channel";
import { createLogger } from "@wallet/telemetry/logger";
import { createApp } from "./app.ts";
import { readGatewayEnv } from "./env.ts";
import { tenantsByPublicKey } from "./tenant-keys.ts";

const env = readGatewayEnv();
const gatewayId = `gw-${randomUUID().slice(0, 8)}`;
const logger = createLogger("gateway", env.LOG_LEVEL).child({ gatewayId });

const redis = createRedis(env.REDIS_URL, `${gatewayId}-cmd`);
const subscriber = createRedis(env.REDIS_URL, `${gatewayId}-sub`);
const clock = new RedisClock(redis);
const queues = new PartitionQueues(redis, env.REDIS_PREFIX, env.LEDGER_PARTITIONS);
const replies = new ReplyChannel(subscriber, redisNames(env.REDIS_PREFIX).replyChannel(gatewayId));

await clock.start();
await queues.enforceSerialization();
await replies.open();

const app = createApp({
  tenantFor: tenantsByPublicKey(env.TENANTS),
  dispatcher: new Dispatcher(queues, replies, clock),
  partitions: env.LEDGER_PARTITIONS,
  deadlineMs: env.CALLBACK_DEADLINE_MS,
  bodyLimitBytes: env.BODY_LIMIT_BYTES,
  maxInFlight: env.MAX_IN_FLIGHT,
  logger,
  readiness: async () => {
    try {
      const workers = await liveWorkers(redis, env.REDIS_PREFIX, clock);
      // A worker heartbeats only after its own database check succeeds.
      return {
        ready: workers.length > 0,
        checks: { redis: "ok", mysql: workers.length > 0 ? "ok" : "unknown", workers: workers.length },
      };
    } catch {
      return { ready: false, checks: { redis: "unreachable" } };
    }
  },
});

const server = app.listen(env.GATEWAY_PORT, () => {
  const { port } = server.address() as AddressInfo;
  logger.info(
    {
      port,
      partitions: env.LEDGER_PARTITIONS,
      tenants: env.TENANTS.length,
      clockOffsetMs: clock.offset,
      clockRttMs: clock.rttMs,
    },
    "gateway listening",
  );
});
// Slow clients cannot hold sockets open forever.
server.headersTimeout = 10_000;
server.requestTimeout = 15_000;
server.keepAliveTimeout = 5_000;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "gateway stopping");
  server.close();
  await replies.close();
  await queues.close();
  clock.stop();
  redis.disconnect();
  subscriber.disconnect();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
