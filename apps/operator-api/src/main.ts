import type { AddressInfo } from "node:net";
import { defaultLedgerConfig } from "@wallet/ledger/context";
import { createDatabase } from "@wallet/ledger/db";
import { createLogger } from "@wallet/telemetry/logger";
import { createOperatorApi } from "./app.ts";
import { readOperatorApiEnv } from "./env.ts";

const env = readOperatorApiEnv();
const logger = createLogger("operator-api", env.LOG_LEVEL);
const database = createDatabase({ url: env.DATABASE_URL, poolSize: 8 });
const app = createOperatorApi({
  ctx: { db: database.db, config: defaultLedgerConfig },
  tenants: env.TENANTS,
  token: env.OPERATOR_API_TOKEN,
  logger,
});
const server = app.listen(env.OPERATOR_API_PORT, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, "operator API listening");
});

async function shutdown(signal: string) {
  logger.info({ signal }, "operator API stopping");
  server.close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
