import { Counter, collectDefaultMetrics, Registry } from "prom-client";

/** The worker's metrics. Labels are closed sets (topic, outcome): never player, round or transaction ids. */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    sideEffects: new Counter({
      name: "wallet_side_effects_total",
      help: "Side-effect deliveries by topic and outcome (applied, or duplicate: a counted no-op)",
      labelNames: ["topic", "outcome"] as const,
      registers: [registry],
    }),
    reconciliationMismatches: new Counter({
      name: "wallet_reconciliation_mismatches_total",
      help: "Closed rounds whose CLOSE_ROUND arrays disagree with our own bets and wins",
      registers: [registry],
    }),
    outboxPublished: new Counter({
      name: "wallet_outbox_published_total",
      help: "Outbox rows published to side-effect queues (republishes included)",
      registers: [registry],
    }),
    outboxRequeued: new Counter({
      name: "wallet_outbox_requeued_total",
      help: "Published outbox rows whose effect never arrived, handed back to the relay by the sweep",
      registers: [registry],
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
