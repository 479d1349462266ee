import type { SideEffectTopic } from "@wallet/contracts/side-effects";
import type { Db } from "@wallet/ledger/db";
import { relayOutbox, requeueUnapplied } from "@wallet/ledger/side-effects/outbox-relay";
import type { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan, linksTo, SpanKind } from "@wallet/telemetry/spans";
import type { FaultPoint } from "./faults.ts";
import type { WorkerMetrics } from "./metrics.ts";

export interface RelayDeps {
  db: Db;
  queues: SideEffectQueues;
  logger: Logger;
  metrics: WorkerMetrics;
  intervalMs: number;
  sweepEveryMs: number;
  sweepAgeSeconds: number;
  fault: (point: FaultPoint) => Promise<void>;
}

/**
 * Moves committed outbox rows to the side-effect queues: publish, then mark, inside the
 * transaction that locked the rows. Any number of relays may run; a crash republishes. A sweep
 * hands back rows whose job vanished (Redis lost its data) once they are `sweepAgeSeconds` old.
 */
export function startOutboxRelay(deps: RelayDeps): { stop: () => Promise<void> } {
  let running = true;
  let lastSweep = 0;
  const loop = (async () => {
    while (running) {
      try {
        if (Date.now() - lastSweep >= deps.sweepEveryMs) {
          lastSweep = Date.now();
          const requeued = await requeueUnapplied(deps.db, deps.sweepAgeSeconds);
          if (requeued > 0) {
            deps.metrics.outboxRequeued.inc(requeued);
            deps.logger.warn({ requeued }, "outbox rows published but never applied: republishing");
          }
        }
        const relayed = await relayOutbox(deps.db, async (rows) => {
          await deps.fault("relay-before-publish");
          const payloads = rows.map((row) => JSON.parse(row.payload) as { traceparent?: string });
          // Linked, not parented, to the CLOSE_ROUNDs whose effects these are: one batch serves many rounds.
          await inSpan(
            "outbox publish",
            {
              kind: SpanKind.PRODUCER,
              links: linksTo(payloads.map((payload) => payload.traceparent)),
              attributes: { "messaging.system": "bullmq", "messaging.batch.message_count": rows.length },
            },
            async () => {
              for (const [index, row] of rows.entries()) {
                await deps.queues.publish(row.topic as SideEffectTopic, row.eventId, payloads[index]);
              }
            },
          );
          deps.metrics.outboxPublished.inc(rows.length);
          await deps.fault("relay-after-publish");
        });
        if (relayed > 0) continue;
      } catch (error) {
        deps.logger.error({ err: error }, "outbox relay failed; retrying");
      }
      await new Promise((resolve) => setTimeout(resolve, deps.intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
