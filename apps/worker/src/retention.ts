import type { Db } from "@wallet/ledger/db";
import { pruneAppliedOutbox } from "@wallet/ledger/side-effects/outbox-queries";
import { earliestStoredReport } from "@wallet/ledger/side-effects/reports-since";
import type { ReportingBound, ReportingQueue } from "@wallet/queue/reporting-queue";
import type { Logger } from "@wallet/telemetry/logger";
import type { SideEffectMetrics } from "./metrics.ts";

export interface RetentionDeps {
  db: Db;
  reporting: ReportingQueue;
  logger: Logger;
  metrics: SideEffectMetrics;
  everyMs: number;
  /** Applied outbox rows older than this are deleted. */
  outboxRetentionSeconds: number;
  pruneChunk: number;
  /** Pause between chunks: the pruner's pace, so it never competes with the callbacks for long. */
  prunePauseMs: number;
  reportingBound: ReportingBound;
}

/**
 * Keeps what grows with traffic bounded: applied outbox rows past their retention are deleted in
 * small chunks, paced (`prunePauseMs` between chunks lets the callbacks through), and the reporting queue is held to
 * its bound. Every worker runs it; two at once only share the work.
 */
export function startRetention(deps: RetentionDeps): { stop: () => Promise<void> } {
  let running = true;
  let wake: () => void = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (running) {
      try {
        await pruneOutbox(deps, () => running, pause);
        const trimmed = await deps.reporting.trim(deps.reportingBound);
        if (trimmed.dropped > 0) {
          deps.metrics.reportingDropped.inc(trimmed.dropped);
          // From the dropped reports' own stored rows, on the clock `republish --since` compares
          // with: the queue time of a report is later than its row's (by milliseconds, or by days
          // for one republished), so a --since read off the queue missed some.
          const earliest = await earliestStoredReport(deps.db, trimmed.rounds);
          const since = earliest?.toISOString() ?? "<when the consumer stopped>";
          deps.logger.warn(
            { dropped: trimmed.dropped, since, bound: deps.reportingBound },
            `unread reports over the reporting queue's bound were dropped from Redis (kept in MySQL); restore them with: pnpm side-effects republish --topic reporting --since ${since}`,
          );
        }
      } catch (error) {
        deps.logger.error({ err: error }, "retention pass failed; retrying at the next pass");
      }
      if (running) await pause(deps.everyMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      wake();
      await loop;
    },
  };
}

async function pruneOutbox(
  deps: RetentionDeps,
  running: () => boolean,
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  while (running()) {
    const deleted = await pruneAppliedOutbox(deps.db, deps.outboxRetentionSeconds, deps.pruneChunk);
    deps.metrics.outboxPruned.inc(deleted);
    if (deleted < deps.pruneChunk) return;
    await pause(deps.prunePauseMs);
  }
}
