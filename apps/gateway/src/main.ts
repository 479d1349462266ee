import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { liveWorkers } from "@wallet/queue/heartbeat";
import { openDispatcher } from "@wallet/queue/open-dispatcher";
import { PartitionCountMismatch } from "@wallet/queue/partitions";
import { redisTarget } from "@wallet/queue/redis-env";
import { answerClientErrorsAsJson } from "@wallet/telemetry/client-errors";
import { createLogger } from "@wallet/telemetry/logger";
import { serveMetrics } from "@wallet/telemetry/metrics-server";
import { startTracing } from "@wallet/telemetry/tracing";
import { tracingConfig } from "@wallet/telemetry/tracing-env";
import { createApp } from "./app.ts";
import { readGatewayEnv } from "./env.ts";
import { createGatewayMetrics } from "./metrics.ts";
import { tenantsByPublicKey } from "./tenant-keys.ts";

const env = readGatewayEnv();
const gatewayId = `gw-${randomUUID().slice(0, 8)}`;
const logger = createLogger("gateway", env.LOG_LEVEL).child({ gatewayId });
const tracing = startTracing(tracingConfig(env, "wallet-gateway"));

const { dispatcher, closes, queues, clock, redis, close } = await openDispatcher({
  redis: redisTarget(env),
  prefix: env.REDIS_PREFIX,
  partitions: env.LEDGER_PARTITIONS,
  clientId: gatewayId,
});

const metrics = createGatewayMetrics(
  env.CALLBACK_DEADLINE_MS,
  async () => (await liveWorkers(redis, env.REDIS_PREFIX, clock)).length,
  () => dispatcher.held,
);
const metricsServer = await serveMetrics(metrics.registry, env.METRICS_PORT, { host: env.METRICS_HOST });

const app = createApp({
  metrics,
  tenantFor: tenantsByPublicKey(env.TENANTS),
  dispatcher,
  closes,
  partitions: env.LEDGER_PARTITIONS,
  deadlineMs: env.CALLBACK_DEADLINE_MS,
  bodyLimitBytes: env.BODY_LIMIT_BYTES,
  closeRoundBodyLimitBytes: env.CLOSE_ROUND_BODY_LIMIT_BYTES,
  maxInFlight: env.MAX_IN_FLIGHT,
  logger,
  readiness: async () => {
    try {
      // Not ready while the prefix runs with another partition count (changed while this gateway ran).
      const partitions = await queues.claimCount().then(
        () => "ok",
        (error: unknown) => (error instanceof PartitionCountMismatch ? error.message : "ok"),
      );
      if (partitions !== "ok") return { ready: false, checks: { redis: "ok", partitions } };
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

// Slow clients cannot hold sockets open forever: the headers, then the whole request, must arrive in
// time or the socket is answered 408 and closed. Node looks for late sockets only every
// connectionsCheckingInterval (30 s by default), so it is kept short for the timeouts to hold.
const server = createServer(
  {
    headersTimeout: env.HEADERS_TIMEOUT_MS,
    requestTimeout: env.REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1_000, env.HEADERS_TIMEOUT_MS),
  },
  app,
);
server.keepAliveTimeout = 5_000;
answerClientErrorsAsJson(server);
// Unset GATEWAY_HOST: every interface (Node's default).
server.listen({ port: env.GATEWAY_PORT, host: env.GATEWAY_HOST }, () => {
  const { address, port } = server.address() as AddressInfo;
  logger.info(
    {
      address,
      port,
      partitions: env.LEDGER_PARTITIONS,
      tenants: env.TENANTS.length,
      clockOffsetMs: clock.offset,
      clockRttMs: clock.rttMs,
      metricsPort: metricsServer.port,
      tracing: tracing.enabled,
    },
    "gateway listening",
  );
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "gateway stopping");
  // Stop accepting, then let the callbacks in flight get their answers (at most one deadline) before
  // Redis is closed under them: each is answered, 503 at worst, never cut off.
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await Promise.race([
    drained,
    new Promise((resolve) => setTimeout(resolve, env.CALLBACK_DEADLINE_MS + 500)),
  ]);
  metricsServer.server.close();
  await close();
  await tracing.shutdown();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
