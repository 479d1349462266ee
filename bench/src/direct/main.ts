import type { AddressInfo } from "node:net";
import { createApp } from "@wallet/gateway/app";
import { createGatewayMetrics } from "@wallet/gateway/metrics";
import { tenantsByPublicKey } from "@wallet/gateway/tenant-keys";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { upsertTenant } from "@wallet/ledger/verbs/admin";
import { createLogger } from "@wallet/telemetry/logger";
import { DirectCaller } from "./direct-caller.ts";
import { readDirectEnv } from "./env.ts";

/**
 * The benchmark's direct baseline: the gateway's own Express app (signature, parsing, metrics,
 * shedding), but each callback runs its ledger verb in this process instead of through a queue.
 */
const env = readDirectEnv();
const logger = createLogger("direct-baseline", env.LOG_LEVEL);
const database = createDatabase({ url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE });
const ctx = { db: database.db, config: { ...defaultLedgerConfig } };
for (const tenant of env.TENANTS) {
  await upsertTenant({ ctx, input: { id: tenant.operatorId, publicKey: tenant.publicKey } });
}
const metrics = createGatewayMetrics(env.CALLBACK_DEADLINE_MS, async () => 1);
const app = createApp({
  metrics,
  tenantFor: tenantsByPublicKey(env.TENANTS),
  dispatcher: new DirectCaller(ctx, logger),
  partitions: env.LEDGER_PARTITIONS,
  deadlineMs: env.CALLBACK_DEADLINE_MS,
  bodyLimitBytes: env.BODY_LIMIT_BYTES,
  maxInFlight: env.MAX_IN_FLIGHT,
  logger,
  readiness: async () => ({ ready: true, checks: {} }),
});
const server = app.listen(env.GATEWAY_PORT, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, "direct baseline listening");
});
server.keepAliveTimeout = 5_000;

async function shutdown() {
  server.close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
