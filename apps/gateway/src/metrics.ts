import { closeRefusalReasons } from "@wallet/contracts/close-refusal";
import { signatureRefusals } from "@wallet/contracts/hmac";
import { type CallbackOp, callbackOps } from "@wallet/contracts/jobs";
import { depositActions, withdrawActions } from "@wallet/contracts/wallet-request";
import { SCRAPE_READ_TIMEOUT_MS } from "@wallet/telemetry/bounded-read";
import { bucketsWithDeadline, createRegistry, dependencyMetrics, zeroed } from "@wallet/telemetry/metrics";
import { Counter, Gauge, Histogram } from "prom-client";

/** The `action` label a parsed body of each endpoint carries (`actionLabel`). */
const actionsOf: Record<CallbackOp, readonly string[]> = {
  auth: ["none"],
  withdraw: withdrawActions,
  deposit: depositActions,
  balance: ["none"],
};

/**
 * Every label set a 503 of the gateway is counted under (`observe.ts`): per endpoint, `unknown` (shed,
 * or failed, before its body was read) and each action its body can carry (`none` for /auth and
 * /balance). 503 is the only 5xx the gateway answers (`codeToStatus`); the ledger's are 503 too.
 */
export const unavailableLabelSets = callbackOps.flatMap((endpoint) =>
  ["unknown", ...actionsOf[endpoint]].map((action) => ({ endpoint, action, status: "503" })),
);

/**
 * The gateway's metrics (docs/metrics.md). Label values are closed sets: endpoint, action,
 * status, reason. Never a player, round or transaction id.
 */
export function createGatewayMetrics(
  deadlineMs: number,
  countLiveWorkers: () => Promise<number>,
  /** Callbacks waiting in this gateway for their partition's running job (the dispatcher's `held`). */
  heldCallbacks: () => number = () => 0,
) {
  const registry = createRegistry();
  const registers = [registry];
  const dependencies = dependencyMetrics(registry);
  // Counters an alert reads with increase() start at 0 for every label set they can take: a series
  // that first appears at 1 would hide its first event (issue 21).
  const endpoints = callbackOps.map((endpoint) => ({ endpoint }));
  const callbackDuration = new Histogram({
    name: "wallet_callback_duration_seconds",
    help: "Callbacks from arrival to answer, by endpoint, action and HTTP status",
    labelNames: ["endpoint", "action", "status"] as const,
    buckets: bucketsWithDeadline(deadlineMs),
    registers,
  });
  // The error-budget alerts read rate() of its 5xx series: every series a 503 can take starts at 0,
  // or the first 503 of each after a start would be invisible to them (issue 34).
  for (const labels of unavailableLabelSets) callbackDuration.zero(labels);
  return {
    registry,
    dependencies,
    callbackDuration,
    signatureFailures: zeroed(
      new Counter({
        name: "wallet_signature_failures_total",
        help: "Callbacks refused 401 by reason (missing/unknown public key, missing/malformed signature, mismatch)",
        labelNames: ["reason"] as const,
        registers,
      }),
      ["missing_public_key", "unknown_public_key", ...signatureRefusals].map((reason) => ({ reason })),
    ),
    closeRefusals: zeroed(
      new Counter({
        name: "wallet_close_refusals_total",
        help: "CLOSE_ROUNDs refused 400 (stored in refused_closes, recoverable with POST /v1/rounds/{id}/close), by reason",
        labelNames: ["reason"] as const,
        registers,
      }),
      closeRefusalReasons.map((reason) => ({ reason })),
    ),
    replays: new Counter({
      name: "wallet_callback_replays_total",
      help: "Idempotent answers: replay (same provider_tx_id and bytes) or conflict (same id, other bytes: 409)",
      labelNames: ["endpoint", "action", "kind"] as const,
      registers,
    }),
    deadlineExceeded: zeroed(
      new Counter({
        name: "wallet_callback_deadline_exceeded_total",
        help: "Callbacks answered 503 because the ledger did not answer within the deadline",
        labelNames: ["endpoint"] as const,
        registers,
      }),
      endpoints,
    ),
    shed: zeroed(
      new Counter({
        name: "wallet_callback_shed_total",
        help: "Callbacks refused 503 at once because MAX_IN_FLIGHT callbacks were already in flight",
        labelNames: ["endpoint"] as const,
        registers,
      }),
      endpoints,
    ),
    inFlight: new Gauge({
      name: "wallet_callbacks_in_flight",
      help: "Callbacks admitted and not yet answered",
      registers,
    }),
    held: new Gauge({
      name: "wallet_callbacks_held",
      help: "Callbacks waiting in this gateway for their partition's running job; they leave together as its next job",
      registers,
      collect() {
        this.set(heldCallbacks());
      },
    }),
    workersLive: new Gauge({
      name: "wallet_workers_live",
      help: "Workers with a fresh heartbeat (0: nothing serves the ledger)",
      registers,
      // Read at scrape time: a stale value would claim workers that have since died. Reading the
      // heartbeats is also the gateway's Redis check; without Redis no worker can serve (0). Bounded
      // well inside a scrape's timeout: with Redis down the read would wait for it forever.
      async collect() {
        this.set(await dependencies.check("redis", countLiveWorkers, SCRAPE_READ_TIMEOUT_MS).catch(() => 0));
      },
    }),
  };
}
export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
