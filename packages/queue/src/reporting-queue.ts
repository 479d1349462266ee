import { reportingQueue } from "@wallet/contracts/side-effect-catalog";
import type { RoundReport } from "@wallet/contracts/side-effects";
import type { Queue } from "bullmq";

/** The queue the reporting team consumes; its job ids are the reports' event ids. */
export const reportingQueueName = reportingQueue.queue;

/** BullMQ refuses ':' in job ids; this escaping keeps ids readable and distinct ids distinct. */
export function jobIdFor(eventId: string): string {
  return eventId.replaceAll("%", "%25").replaceAll(":", "%3A");
}

/**
 * How many unread reports Redis holds at most: past either bound the oldest are dropped from Redis
 * (never from MySQL: every report stays in `round_reports`, and `pnpm side-effects republish` puts
 * them back), so a reporting consumer down for a weekend cannot fill Redis and stop the callbacks.
 */
export interface ReportingBound {
  maxAgeSeconds: number;
  maxLength: number;
}

export interface Trimmed {
  dropped: number;
  /** When the oldest dropped report was queued: `republish --since` from here restores them all. */
  oldestQueuedAt?: Date;
}

/** The reporting queue: publish in bulk, read its backlog, hold it to its bound. */
export class ReportingQueue {
  constructor(readonly queue: Queue) {}

  /** One round trip for all; a report whose job still waits is not added twice (same job id). */
  async publish(reports: RoundReport[]): Promise<void> {
    if (reports.length === 0) return;
    await this.queue.addBulk(
      reports.map((report) => ({
        name: reportingQueue.name,
        data: report,
        opts: { ...reportingQueue.jobOptions, jobId: jobIdFor(report.eventId) },
      })),
    );
  }

  /** Unread reports (waiting, not yet taken by the consumer) and the age of the oldest. */
  async backlog(now = Date.now()): Promise<{ unread: number; oldestAgeSeconds: number }> {
    const [unread, [oldest]] = await Promise.all([
      this.queue.getWaitingCount(),
      this.queue.getJobs(["wait"], 0, 0, true),
    ]);
    return { unread, oldestAgeSeconds: oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0 };
  }

  /** Drops the unread reports past the bound, oldest first, `chunk` per Redis call. */
  async trim(bound: ReportingBound, chunk = 1_000): Promise<Trimmed> {
    // The oldest unread report (the wait list's tail): its queue time is where `--since` starts.
    const [oldest] = await this.queue.getJobs(["wait"], 0, 0, true);
    let dropped = 0;
    for (;;) {
      const excess = (await this.queue.getWaitingCount()) - bound.maxLength;
      if (excess <= 0) break;
      const removed = await this.queue.clean(0, Math.min(excess, chunk), "wait");
      dropped += removed.length;
      if (removed.length === 0) break; // queued "in the future" by a host whose clock runs ahead
    }
    for (;;) {
      const removed = await this.queue.clean(bound.maxAgeSeconds * 1000, chunk, "wait");
      dropped += removed.length;
      if (removed.length < chunk) break;
    }
    return dropped > 0 && oldest ? { dropped, oldestQueuedAt: new Date(oldest.timestamp) } : { dropped };
  }
}
