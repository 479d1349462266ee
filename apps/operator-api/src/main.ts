import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { pingDatabase } from "@wallet/ledger/ping";
import { servingDatabase } from "@wallet/ledger/serving-database";
import { outboxBacklog } from "@wallet/ledger/side-effects/outbox-queries";
import { GameCatalog } from "@wallet/platform-client/game-catalog";
import { openDispatcher } from "@wallet/queue/open-dispatcher";
import { redisTarget } from "@wallet/queue/redis-env";
import { answerClientErrorsAsJson } from "@wallet/telemetry/client-errors";
import { createLogger } from "@wallet/telemetry/logger";
import { serveMetrics } from "@wallet/telemetry/metrics-server";
import { startTracing } from "@wallet/telemetry/tracing";
import { tracingConfig } from "@wallet/telemetry/tracing-env";
import { createOperatorApi } from "./app.ts";
import { readOperatorApiEnv } from "./env.ts";
import { listen } from "./listen.ts";
import { createOperatorApiMetrics } from "./metrics.ts";

const env = readOperatorApiEnv();
const logger = createLogger("operator-api", env.LOG_LEVEL);
const tracing = startTracing(tracingConfig(env, "wallet-operator-api"));
const database = servingDatabase(env, logger, { poolSize: 8, traceStatements: tracing.enabled });
const apiId = `api-${randomUUID().slice(0, 8)}`;
const { dispatcher, closes, queues, clock, redis, close } = await openDispatcher({
  redis: redisTarget(env),
  prefix: env.REDIS_PREFIX,
  partitions: env.LEDGER_PARTITIONS,
  clientId: apiId,
});
const metrics = createOperatorApiMetrics({
  queueDepths: () => queues.depths(),
  outboxBacklog: () => outboxBacklog(database.db),
  databaseFenced: database.fenced,
  databaseSessionRefused: database.sessionRefused,
});

// One catalog cache per operator: catalogs are scoped per operator.
const catalogs = new Map<number, GameCatalog>();
const catalogFor = (tenantId: number) => {
  let catalog = catalogs.get(tenantId);
  if (!catalog) {
    const tenant = env.TENANTS.find((entry) => entry.operatorId === tenantId);
    catalog = new GameCatalog({
      baseUrl: env.PLATFORM_BASE_URL,
      operatorId: tenantId,
      publicKey: tenant?.publicKey ?? "",
      ttlMs: env.GAME_CACHE_TTL_MS,
      observer: metrics.platformObserver,
    });
    catalogs.set(tenantId, catalog);
  }
  return catalog;
};

const app = createOperatorApi({
  ctx: { db: database.db, batch: database.batch, config: defaultLedgerConfig },
  tenants: env.TENANTS,
  token: env.OPERATOR_API_TOKEN,
  unknownTokenCacheMs: env.OPERATOR_API_UNKNOWN_TOKEN_CACHE_MS,
  logger,
  metrics,
  dispatcher,
  closes,
  partitions: env.LEDGER_PARTITIONS,
  deadlineMs: env.CALLBACK_DEADLINE_MS,
  userTokenTtlSeconds: env.USER_TOKEN_TTL_SECONDS,
  closeRoundBodyLimitBytes: env.CLOSE_ROUND_BODY_LIMIT_BYTES,
  platform: { baseUrl: env.PLATFORM_BASE_URL, catalogFor, observer: metrics.platformObserver },
});
const metricsServer = await serveMetrics(metrics.registry, env.METRICS_PORT, { host: env.METRICS_HOST });
const checkDependencies = () => {
  metrics.dependencies.check("mysql", () => pingDatabase(database.db)).catch(() => {});
  metrics.dependencies.check("redis", () => redis.time()).catch(() => {});
};
checkDependencies();
const checks = setInterval(checkDependencies, 5_000);
const { server, address } = await listen(app, env.OPERATOR_API_PORT, env.OPERATOR_API_HOST);
logger.info(
  {
    port: address.port,
    host: address.address,
    metricsPort: metricsServer.port,
    metricsHost: (metricsServer.server.address() as AddressInfo).address,
    tracing: tracing.enabled,
    clockOffsetMs: clock.offset,
    clockRttMs: clock.rttMs,
  },
  "operator API listening",
);
answerClientErrorsAsJson(server);

async function shutdown(signal: string) {
  logger.info({ signal }, "operator API stopping");
  clearInterval(checks);
  server.close();
  metricsServer.server.close();
  await close();
  await database.close();
  await tracing.shutdown();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
