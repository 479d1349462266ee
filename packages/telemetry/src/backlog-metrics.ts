import { Gauge, type Registry } from "prom-client";
import { scrapeProbe } from "./bounded-read.ts";

/** Reads of shared state behind the backlog gauges (Redis queues, the outbox in MySQL). */
export interface BacklogProbes {
  /** Waiting jobs per ledger partition, index = partition. */
  queueDepths: () => Promise<number[]>;
  /** Outbox rows not yet applied, and the age of the oldest. */
  outboxBacklog: () => Promise<{ pending: number; oldestAgeSeconds: number }>;
}

/**
 * The backlog gauges: ledger queue depth per partition and the outbox's pending rows and oldest age.
 * They describe shared state, read at scrape time, so every process that exports them reports the
 * same values and dashboards and alerts aggregate with `max`. Workers and the operator API both
 * export them: with every worker down, the backlog is exactly what an SRE needs to see, and
 * `WalletOutboxStuck` must still be able to fire.
 */
export function backlogGauges(registers: Registry[], probes: BacklogProbes) {
  const outboxBacklog = sharedRead(scrapeProbe(probes.outboxBacklog, "outbox backlog"), 500);
  const queueDepths = scrapeProbe(probes.queueDepths, "queue depths");
  return {
    queueDepth: new Gauge({
      name: "wallet_ledger_queue_depth",
      help: "Ledger jobs waiting on each partition",
      labelNames: ["partition"] as const,
      registers,
      async collect() {
        // A failed read leaves the last values: wallet_dependency_up says Redis is the problem.
        const depths = await queueDepths().catch(() => undefined);
        depths?.forEach((depth, partition) => {
          this.set({ partition: String(partition) }, depth);
        });
      },
    }),
    outboxPending: new Gauge({
      name: "wallet_outbox_pending_rows",
      help: "Outbox rows (one per CLOSE_ROUND) committed but not yet fully applied",
      registers,
      async collect() {
        const backlog = await outboxBacklog().catch(() => undefined);
        if (backlog) this.set(backlog.pending);
      },
    }),
    outboxOldestAge: new Gauge({
      name: "wallet_outbox_oldest_pending_age_seconds",
      help: "Age of the oldest outbox row committed but not yet fully applied (0 when none)",
      registers,
      async collect() {
        const backlog = await outboxBacklog().catch(() => undefined);
        if (backlog) this.set(backlog.oldestAgeSeconds);
      },
    }),
  };
}

/** One call serves every caller within `ms`: two gauges of one scrape read the outbox once. */
export function sharedRead<T>(read: () => Promise<T>, ms: number): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | undefined;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > ms) last = { at: now, result: read() };
    return last.result;
  };
}
