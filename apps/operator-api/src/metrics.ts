import type { PlatformObserver } from "@wallet/platform-client/http";
import { type BacklogProbes, backlogGauges } from "@wallet/telemetry/backlog-metrics";
import {
  createRegistry,
  databaseFencedGauge,
  databaseSessionRefusedGauge,
  dependencyMetrics,
  latencyBuckets,
} from "@wallet/telemetry/metrics";
import { Counter, Histogram } from "prom-client";

/**
 * The operator API's metrics (docs/metrics.md): route patterns, never ids, as label values. It also
 * exports the backlog gauges (queue depth, outbox), read through `probes`: it reaches MySQL and
 * Redis and keeps running when every worker is down, which is when the backlog matters.
 */
export function createOperatorApiMetrics(
  probes: BacklogProbes & { databaseFenced: () => boolean; databaseSessionRefused: () => boolean },
) {
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
    databaseFenced: databaseFencedGauge(registers, probes.databaseFenced),
    databaseSessionRefused: databaseSessionRefusedGauge(registers, probes.databaseSessionRefused),
    ...backlogGauges(registers, probes),
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
