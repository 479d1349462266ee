import type { PlatformObserver } from "@wallet/platform-client/http";
import { type BacklogProbes, backlogGauges } from "@wallet/telemetry/backlog-metrics";
import { createRegistry, dependencyMetrics, latencyBuckets } from "@wallet/telemetry/metrics";
import { Counter, Histogram } from "prom-client";

/**
 * The operator API's metrics (docs/metrics.md): route patterns, never ids, as label values. It also
 * exports the backlog gauges (queue depth, outbox), read through `backlog`: it reaches MySQL and
 * Redis and keeps running when every worker is down, which is when the backlog matters.
 */
export function createOperatorApiMetrics(backlog: BacklogProbes) {
  const registry = createRegistry();
  const registers = [registry];
  const platformRequests = new Histogram({
    name: "wallet_platform_request_duration_seconds",
    help: "Calls to the game platform by call (catalog, launch) and status (HTTP status, timeout, network)",
    labelNames: ["call", "status"] as const,
    buckets: latencyBuckets,
    registers,
  });
  const catalogLookups = new Counter({
    name: "wallet_game_catalog_lookups_total",
    help: "Game catalog reads by how they were served: hit, miss (fetched), stale (platform failing), error",
    labelNames: ["result"] as const,
    registers,
  });
  const platformObserver: PlatformObserver = {
    request: (call, status, seconds) => platformRequests.observe({ call, status }, seconds),
    catalogLookup: (result) => catalogLookups.inc({ result }),
  };
  return {
    registry,
    dependencies: dependencyMetrics(registry),
    ...backlogGauges(registers, backlog),
    platformObserver,
    requestDuration: new Histogram({
      name: "wallet_operator_api_request_duration_seconds",
      help: "Operator API requests by route pattern, method and HTTP status",
      labelNames: ["route", "method", "status"] as const,
      buckets: latencyBuckets,
      registers,
    }),
  };
}
export type OperatorApiMetrics = ReturnType<typeof createOperatorApiMetrics>;
