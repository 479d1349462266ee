import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { partitionsEnvShape, redisEnvShape } from "@wallet/queue/redis-env";
import { tracingEnvShape } from "@wallet/telemetry/tracing-env";
import { z } from "zod";

/** The operator API's configuration, read once at boot; defaults are for local use only. */
export const operatorApiEnvSchema = z.object({
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  OPERATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
  OPERATOR_API_TOKEN: z.string().min(8).default("dev-operator-token"),
  TENANTS: tenantsJson.default(devTenants),
  ...redisEnvShape,
  ...partitionsEnvShape,
  /** How long an adjustment waits for its ledger partition before answering 503. */
  CALLBACK_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
  PLATFORM_BASE_URL: z.string().url().default("http://127.0.0.1:3200"),
  /** The catalog cache; the contract recommends 5 to 15 minutes. */
  GAME_CACHE_TTL_MS: z.coerce.number().int().min(300_000).max(900_000).default(600_000),
  USER_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  /** Prometheus metrics on their own port, never on the public one (0: any free port, logged at boot). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9102),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ...tracingEnvShape,
});
export type OperatorApiEnv = z.infer<typeof operatorApiEnvSchema>;

export function readOperatorApiEnv(source: Record<string, string | undefined> = process.env): OperatorApiEnv {
  return operatorApiEnvSchema.parse(source);
}
