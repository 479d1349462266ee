import { limits } from "@wallet/contracts/limits";
import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { servingDatabaseEnvShape } from "@wallet/ledger/serving-database";
import { partitionsEnvShape, redisEnvShape } from "@wallet/queue/redis-env";
import { tracingEnvShape } from "@wallet/telemetry/tracing-env";
import { z } from "zod";

/** A listener's bind address (an IP or a host name); unset or empty: every interface, IPv4 and IPv6. */
const bindAddress = z
  .string()
  .optional()
  .transform((host) => host || undefined);

/** The operator API's configuration, read once at boot; defaults are for local use only. */
export const operatorApiEnvSchema = z.object({
  ...servingDatabaseEnvShape,
  OPERATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(3100),
  /** The address the API listens on; unset: every interface (a pod's API must stay reachable from the pod network). */
  OPERATOR_API_HOST: bindAddress,
  OPERATOR_API_TOKEN: z.string().min(8).default("dev-operator-token"),
  /**
   * How long a bearer token found nowhere (unknown or revoked) stays refused without a MariaDB read
   * (0: read every time). A live token is read on every request, never remembered, so a revocation
   * holds from the next request on (`token-lookup.ts`).
   */
  OPERATOR_API_UNKNOWN_TOKEN_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  TENANTS: tenantsJson.default(devTenants),
  ...redisEnvShape,
  ...partitionsEnvShape,
  /** How long an adjustment waits for its ledger partition before answering 503. */
  CALLBACK_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
  PLATFORM_BASE_URL: z.string().url().default("http://127.0.0.1:3200"),
  /** The catalog cache; the contract recommends 5 to 15 minutes. */
  GAME_CACHE_TTL_MS: z.coerce.number().int().min(300_000).max(900_000).default(600_000),
  USER_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  /**
   * A manual close (`POST /v1/rounds/:round_id/close`) lists every bet of its round, like the
   * platform's CLOSE_ROUND (about 12 bytes a bet): the gateway's limit and default, 8 MiB (over
   * 600,000 bets). Every other route takes 64 KiB.
   */
  CLOSE_ROUND_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(limits.closeBody.max),
  /** Prometheus metrics on their own port, never on the public one (0: any free port, logged at boot). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9102),
  /** The metrics listener's address; unset: every interface (Prometheus scrapes it from outside the pod). */
  METRICS_HOST: bindAddress,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ...tracingEnvShape,
});
export type OperatorApiEnv = z.infer<typeof operatorApiEnvSchema>;

export function readOperatorApiEnv(source: Record<string, string | undefined> = process.env): OperatorApiEnv {
  return operatorApiEnvSchema.parse(source);
}
