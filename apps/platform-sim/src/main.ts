import type { AddressInfo } from "node:net";
import { createLogger } from "@wallet/telemetry/logger";
import { createSimApp } from "./app.ts";
import { CrashEngine } from "./engine/crash-engine.ts";
import { readSimEnv } from "./env.ts";
import { operatorDirectory } from "./operators.ts";
import { Sessions } from "./sessions.ts";

const env = readSimEnv();
const logger = createLogger("platform-sim", env.LOG_LEVEL);
const operators = operatorDirectory(env.SIM_OPERATORS);
const sessions = new Sessions();
const engine = new CrashEngine(operators.byId, sessions, {
  baseMs: env.SIM_RETRY_BASE_MS,
  maxMs: env.SIM_RETRY_MAX_MS,
  jitterMs: env.SIM_RETRY_JITTER_MS,
  maxAttempts: env.SIM_RETRY_ATTEMPTS,
  timeoutMs: env.SIM_CALLBACK_TIMEOUT_MS,
});
const app = createSimApp({ operators, sessions, engine, publicUrl: env.SIM_PUBLIC_URL });
// Unset PLATFORM_SIM_HOST: every interface (Node's default).
const server = app.listen({ port: env.PLATFORM_SIM_PORT, host: env.PLATFORM_SIM_HOST }, () => {
  const { address, port } = server.address() as AddressInfo;
  logger.info({ address, port, operators: env.SIM_OPERATORS.length }, "platform simulator listening");
});

function shutdown(signal: string) {
  logger.info({ signal }, "platform simulator stopping");
  engine.stop();
  server.close();
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
