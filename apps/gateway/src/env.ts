import { limits } from "@wallet/contracts/limits";
import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { partitionsEnvShape, redisEnvShape } from "@wallet/queue/redis-env";
import { tracingEnvShape } from "@wallet/telemetry/tracing-env";
import { z } from "zod";

/** The gateway's whole configuration, read once at boot; defaults are for local use only. */
export const gatewayEnvSchema = z
  .object({
    ...redisEnvShape,
    GATEWAY_PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    /**
     * The address the callback port binds; unset, every interface, as in a pod the platform's traffic
     * arrives through the pod network. `127.0.0.1` keeps it to the machine (a proxy in front).
     */
    GATEWAY_HOST: z.string().min(1).optional(),
    TENANTS: tenantsJson.default(devTenants),
    ...partitionsEnvShape,
    /** How long a callback may wait for the ledger before it is answered 503 (the platform retries). */
    CALLBACK_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2500),
    /** Callbacks in flight beyond this are shed at once with 503 instead of queueing without bound. */
    MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(1024),
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(limits.callbackBody.max),
    /**
     * A CLOSE_ROUND lists every bet of the round (about 12 bytes a bet): it gets a limit of its own,
     * 8 MiB by default (over 600,000 bets), taken only from a known X-Public-Key.
     */
    CLOSE_ROUND_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(limits.closeBody.max),
    /** A client must have sent a request's headers this long after its first byte, or its socket is closed (408). */
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    /** ... and the whole request, body included: slow clients cannot hold sockets open forever. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
    /** Prometheus metrics on their own port, never on the public one (0: any free port, logged at boot). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9100),
    /** The address the metrics port binds; unset, every interface, as Prometheus scrapes from outside the pod. */
    METRICS_HOST: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ...tracingEnvShape,
  })
  // Node refuses to start a server whose headers may take longer than its whole request.
  .refine((env) => env.HEADERS_TIMEOUT_MS <= env.REQUEST_TIMEOUT_MS, {
    message: "HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)",
    path: ["HEADERS_TIMEOUT_MS"],
  });
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export function readGatewayEnv(source: Record<string, string | undefined> = process.env): GatewayEnv {
  return gatewayEnvSchema.parse(source);
}
