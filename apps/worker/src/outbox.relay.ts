import { randomUUID } from "node:crypto";
import { type CloseRoundEvent, closeRoundEvent, type SideEffectTopic } from "@wallet/contracts/side-effects";
import type { LedgerContext } from "@wallet/ledger/context";
import { markApplied, relayOutbox, requeueUnapplied } from "@wallet/ledger/side-effects/outbox-relay";
import { readRoundSummaries } from "@wallet/ledger/side-effects/round-summary";
import type { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import type { Logger } from "@wallet/telemetry/logger";
import { inSpan, linksTo, SpanKind } from "@wallet/telemetry/spans";
import type { FaultPoint } from "./faults.ts";
import type { WorkerMetrics } from "./metrics.ts";

export interface RelayDeps {
  ctx: LedgerContext;
  queues: SideEffectQueues;
  logger: Logger;
  metrics: WorkerMetrics;
  intervalMs: number;
  /** Most outbox rows one turn claims and publishes (in at most four jobs, one per topic). */
  batchSize: number;
  sweepEveryMs: number;
  sweepAgeSeconds: number;
  fault: (point: FaultPoint) => Promise<void>;
}

/**
 * Moves committed outbox rows to the side-effect queues: claim a batch and commit, then one job per
 * topic. Any number of relays may run. Each turn first marks applied the rows whose effects all have
 * their receipts. A sweep hands back rows whose job never arrived (a crash between claim and publish,
 * Redis lost its data, a job that failed for good) once they are `sweepAgeSeconds` old.
 */
export function startOutboxRelay(deps: RelayDeps): { stop: () => Promise<void> } {
  let running = true;
  let lastSweep = 0;
  const loop = (async () => {
    while (running) {
      try {
        // Rows whose every effect has its receipt are marked applied first, so the sweep below never
        // takes a finished row for a lost one.
        await markApplied(deps.ctx.db);
        if (Date.now() - lastSweep >= deps.sweepEveryMs) {
          lastSweep = Date.now();
          const requeued = await requeueUnapplied(deps.ctx.db, deps.sweepAgeSeconds);
          if (requeued > 0) {
            deps.metrics.outboxRequeued.inc(requeued);
            deps.logger.warn({ requeued }, "outbox rows published but never applied: republishing");
          }
        }
        const relayed = await relayOutbox(
          deps.ctx.db,
          async (rows) => {
            await deps.fault("relay-before-publish");
            if (rows.length >= 8) await deps.fault("relay-mid-batch");
            // A close's row comes once per topic: its payload is parsed once.
            const parsed = new Map<number, CloseRoundEvent>();
            const payloads = rows.map((row) => {
              let event = parsed.get(row.id);
              if (!event) {
                event = closeRoundEvent.parse(JSON.parse(row.payload));
                parsed.set(row.id, event);
              }
              return event;
            });
            // Read once here, what each round did goes in all four of its jobs (the consumers would
            // read the same rows four times); only reporting needs the bets themselves.
            const summaries = await readRoundSummaries(deps.ctx, payloads);
            // Linked, not parented, to the CLOSE_ROUNDs whose effects these are: one batch serves many rounds.
            await inSpan(
              "outbox publish",
              {
                kind: SpanKind.PRODUCER,
                links: linksTo(payloads.map((payload) => payload.traceparent)),
                attributes: { "messaging.system": "bullmq", "messaging.batch.message_count": rows.length },
              },
              () =>
                deps.queues.publish(
                  rows.map((row, index) => {
                    const topic = row.topic as SideEffectTopic;
                    const round = summaries.get(row.eventId);
                    const shipped = round && topic !== "reporting" ? { ...round, bets: undefined } : round;
                    return { topic, eventId: row.eventId, payload: { ...payloads[index], round: shipped } };
                  }),
                  // A fresh id per claim, never the rows' range alone: when the sweep hands back rows
                  // whose job failed for good (kept a week in the failed set), the same range must
                  // make a new job, not be taken for the old one and dropped.
                  `outbox-${rows[0]?.id}-${rows.at(-1)?.id}-${randomUUID().slice(0, 8)}`,
                ),
            );
            deps.metrics.outboxPublished.inc(rows.length);
            await deps.fault("relay-after-publish");
          },
          deps.batchSize,
        );
        // A full batch means more are waiting: go on at once. Otherwise wait, so the next turn carries
        // many rounds in its four jobs instead of one round each (the interval bounds the added lag).
        if (relayed >= deps.batchSize) continue;
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
