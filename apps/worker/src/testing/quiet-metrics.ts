import { createWorkerMetrics } from "../metrics.ts";

/** The worker's metrics with probes that read nothing: for tests that run its loops in-process. */
export function quietWorkerMetrics() {
  return createWorkerMetrics({
    queueDepths: async () => [],
    outboxBacklog: async () => ({ pending: 0, oldestAgeSeconds: 0 }),
    deadSideEffects: async () => new Map(),
    reportingBacklog: async () => ({ unread: 0, oldestAgeSeconds: 0 }),
    reportingMaxLength: 1,
    databaseFenced: () => false,
    databaseSessionRefused: () => false,
  });
}
