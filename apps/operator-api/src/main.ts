import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { GameCatalog } from "@wallet/platform-client/game-catalog";
import { openDispatcher } from "@wallet/queue/open-dispatcher";
import { createLogger } from "@wallet/telemetry/logger";
import { createOperatorApi } from "./app.ts";
import { readOperatorApiEnv } from "./env.ts";

const env = readOperatorApiEnv();
const logger = createLogger("operator-api", env.LOG_LEVEL);
const database = createDatabase({ url: env.DATABASE_URL, poolSize: 8 });
const apiId = `api-${randomUUID().slice(0, 8)}`;
const { dispatcher, clock, close } = await openDispatcher({
  redisUrl: env.REDIS_URL,
  prefix: env.REDIS_PREFIX,
  partitions: env.LEDGER_PARTITIONS,
  clientId: apiId,
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
    });
    catalogs.set(tenantId, catalog);
  }
  return catalog;
};

const app = createOperatorApi({
  ctx: { db: database.db, config: defaultLedgerConfig },
  tenants: env.TENANTS,
  token: env.OPERATOR_API_TOKEN,
  logger,
  dispatcher,
  partitions: env.LEDGER_PARTITIONS,
  deadlineMs: env.CALLBACK_DEADLINE_MS,
  userTokenTtlSeconds: env.USER_TOKEN_TTL_SECONDS,
  platform: { baseUrl: env.PLATFORM_BASE_URL, catalogFor },
});
const server = app.listen(env.OPERATOR_API_PORT, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, clockOffsetMs: clock.offset, clockRttMs: clock.rttMs }, "operator API listening");
});

async function shutdown(signal: string) {
  logger.info({ signal }, "operator API stopping");
  server.close();
  await close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
