import type { LedgerContext } from "@wallet/ledger/context";
import { createLogger } from "@wallet/telemetry/logger";
import { createOperatorApi, type OperatorApiDeps } from "../app.ts";
import { createOperatorApiMetrics } from "../metrics.ts";

/**
 * The app as main.ts builds it, with nothing behind it: for tests that read how it is put together
 * (its router, its document, its probes) and never reach MariaDB, Redis or the platform. A request
 * that would is a test bug, and fails loudly.
 */
export function unwiredOperatorApi(overrides: Partial<OperatorApiDeps> = {}) {
  const unreachable = (what: string) => () => {
    throw new Error(`${what} is not wired in this test`);
  };
  return createOperatorApi({
    ctx: new Proxy({} as LedgerContext, { get: unreachable("the ledger") }),
    tenants: [{ operatorId: 1, publicKey: "public-key-1", secretKey: "secret-key-1" }],
    token: "unwired-operator-token",
    unknownTokenCacheMs: 0,
    logger: createLogger("operator-api-test", "silent"),
    metrics: createOperatorApiMetrics({
      queueDepths: unreachable("Redis"),
      outboxBacklog: unreachable("the outbox"),
      databaseFenced: () => false,
      databaseSessionRefused: () => false,
    }),
    dispatcher: { call: unreachable("the dispatcher") },
    closes: { call: unreachable("the close intake") },
    partitions: 1,
    deadlineMs: 100,
    userTokenTtlSeconds: 60,
    closeRoundBodyLimitBytes: 8 * 1024 * 1024,
    platform: { baseUrl: "http://127.0.0.1:9", catalogFor: unreachable("the platform") },
    ...overrides,
  });
}
