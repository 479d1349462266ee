import { redisNames } from "@wallet/contracts/jobs";
import { reportingQueue } from "@wallet/contracts/side-effect-catalog";
import type { RoundReport } from "@wallet/contracts/side-effects";
import type { Job, Queue } from "bullmq";
import { prefixesHolding } from "./key-prefixes.ts";
import type { RedisClient } from "./redis.ts";

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
  /**
   * The rounds whose reports were dropped (each report's operator and round): their stored rows in
   * `round_reports` say from when `republish --since` restores them all. Their queue times cannot
   * (a report is stored a few ms before it is queued, a republished one is queued long after).
   */
  rounds: Array<{ tenantId: number; roundId: string }>;
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

  /**
   * The unread reports of rounds closed since `since`, `chunk` jobs a read: after the ledger lost its
   * newest commits, a report here whose close the ledger no longer holds is a round it lost whole.
   */
  async unreadSince(since: Date, chunk = 1_000): Promise<RoundReport[]> {
    const reports: RoundReport[] = [];
    for (let at = 0; ; at += chunk) {
      const jobs = await this.queue.getJobs(["wait"], at, at + chunk - 1, true);
      for (const job of jobs) {
        const report = job.data as Partial<RoundReport> | undefined;
        if (typeof report?.closedAt === "string" && new Date(report.closedAt) >= since)
          reports.push(report as RoundReport);
      }
      if (jobs.length < chunk) return reports;
    }
  }

  /** Unread reports (waiting, not yet taken by the consumer) and the age of the oldest. */
  async backlog(now = Date.now()): Promise<{ unread: number; oldestAgeSeconds: number }> {
    const [unread, [oldest]] = await Promise.all([
      this.queue.getWaitingCount(),
      this.queue.getJobs(["wait"], 0, 0, true),
    ]);
    return { unread, oldestAgeSeconds: oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0 };
  }

  /**
   * Drops the unread reports past the bound, oldest first, `chunk` at a time: each chunk is read
   * (so what was dropped is known, report by report) and then removed job by job.
   */
  async trim(bound: ReportingBound, chunk = 1_000, now = Date.now()): Promise<Trimmed> {
    const trimmed: Trimmed = { dropped: 0, rounds: [] };
    const drop = async (jobs: Job[]) => {
      for (const job of jobs) {
        // A job the consumer took meanwhile is no longer waiting: remove() refuses it, and it stays.
        if ((await this.queue.remove(String(job.id))) !== 1) continue;
        trimmed.dropped += 1;
        const report = job.data as Partial<RoundReport> | undefined;
        if (typeof report?.operatorId === "number" && typeof report.roundId === "string")
          trimmed.rounds.push({ tenantId: report.operatorId, roundId: report.roundId });
      }
    };
    for (;;) {
      const excess = (await this.queue.getWaitingCount()) - bound.maxLength;
      if (excess <= 0) break;
      const oldest = await this.queue.getJobs(["wait"], 0, Math.min(excess, chunk) - 1, true);
      if (oldest.length === 0) break;
      await drop(oldest);
    }
    for (;;) {
      const oldest = await this.queue.getJobs(["wait"], 0, chunk - 1, true);
      const expired = oldest.filter((job) => job.timestamp < now - bound.maxAgeSeconds * 1000);
      await drop(expired);
      if (expired.length < chunk) break;
    }
    return trimmed;
  }
}

/** BullMQ writes a queue's `meta` key with its first job and keeps it while the queue is empty. */
const metaKey = (prefix: string) =>
  `${redisNames(prefix).bullPrefix(reportingQueueName)}:${reportingQueueName}:meta`;

/**
 * Whether a reporting queue was ever made under this REDIS_PREFIX. Without one, "no unread report"
 * only says that nothing ever published there: a wrong REDIS_PREFIX, most likely.
 */
export async function reportingQueueExists(redis: RedisClient, prefix: string): Promise<boolean> {
  return (await redis.exists(metaKey(prefix))) === 1;
}

/**
 * The REDIS_PREFIXes under which a reporting queue exists (`<prefix>:bull:{reporting}:reporting:meta`):
 * what to suggest when a tool was pointed at a prefix that has none.
 */
export function prefixesWithReportingQueue(redis: RedisClient): Promise<string[]> {
  return prefixesHolding(redis, metaKey(""));
}
