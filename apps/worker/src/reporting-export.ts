import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { redisNames } from "@wallet/contracts/jobs";
import { reportingQueue } from "@wallet/contracts/side-effect-catalog";
import { type RoundReport, readRoundReport } from "@wallet/contracts/side-effects";
import { shortEventStream } from "@wallet/queue/event-stream";
import type { RedisClient } from "@wallet/queue/redis";
import { type Job, Queue, Worker } from "bullmq";
import { lockFileName, lockFolder } from "./folder-lock.ts";

/**
 * One day's NDJSON file (`round-reports-<YYYY-MM-DD>.ndjson`, by the report's `closedAt`), opened for
 * appending. Opening it drops a last line cut short by a crash and remembers the event ids it holds.
 */
class DayFile {
  private readonly held = new Set<string>();
  private readonly fd: number;

  constructor(path: string) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8");
      const whole = text.slice(0, text.lastIndexOf("\n") + 1);
      if (whole.length < text.length) truncateSync(path, Buffer.byteLength(whole));
      for (const line of whole.split("\n"))
        if (line) this.held.add(String((JSON.parse(line) as { eventId: unknown }).eventId));
    }
    this.fd = openSync(path, "a");
  }

  /** Appends the report and makes it durable (fsync) unless the file holds it already; true if written. */
  append(report: RoundReport): boolean {
    if (this.held.has(report.eventId)) return false;
    writeSync(this.fd, `${JSON.stringify(report)}\n`);
    fsyncSync(this.fd);
    this.held.add(report.eventId);
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }
}

export interface ExportOptions {
  redis: RedisClient;
  prefix: string;
  /** The folder the day files are written to (created if missing). */
  dir: string;
  /** Stop once the queue has had nothing to take for a moment (a cron job), instead of running on. */
  untilIdle: boolean;
  log?: (line: string) => void;
  /** Stops the export (SIGTERM, SIGINT): the job in hand is finished, then the folder's lock released. */
  stop?: AbortSignal;
}

/**
 * `pnpm reporting:export`: drains the `reporting` queue into NDJSON files, one report a line. A job
 * is acknowledged (completed, so removed) only after its line is on disk (fsync), which is the
 * cursor: a crash before the acknowledgement redelivers the job, and the day file, which already
 * holds that event id, skips it. So a rerun after a crash leaves no gap and no duplicate line.
 * Holds the folder's lock while it runs, taken before any job (throws `FolderLocked` if another
 * exporter holds it).
 */
export async function exportReports(options: ExportOptions): Promise<ExportCounts> {
  mkdirSync(options.dir, { recursive: true });
  const release = await lockFolder(options.dir, options.log);
  options.log?.(`exporting the reporting queue to ${options.dir} (lock ${join(options.dir, lockFileName)})`);
  try {
    return await drainInto(options);
  } finally {
    release();
  }
}

async function drainInto(options: ExportOptions): Promise<ExportCounts> {
  const files = new Map<string, DayFile>();
  const rejected = new RejectedFile(join(options.dir, rejectedFileName));
  const counts = { written: 0, skipped: 0, rejected: 0 };
  const connection = {
    connection: options.redis,
    prefix: redisNames(options.prefix).bullPrefix(reportingQueue.queue),
  };
  const worker = new Worker(
    reportingQueue.queue,
    async (job: Job) => {
      let report: RoundReport;
      try {
        report = readRoundReport(job.data);
      } catch (error) {
        // Not a report of any version: kept whole beside the day files and counted, never retried
        // for ever nor allowed to stop the export of the reports after it.
        rejected.append(String(job.id), job.data, error);
        counts.rejected += 1;
        options.log?.(`report ${job.id} is not a round report; kept in ${rejectedFileName}`);
        return;
      }
      const day = report.closedAt.slice(0, 10);
      let file = files.get(day);
      if (!file) {
        file = new DayFile(join(options.dir, `round-reports-${day}.ndjson`));
        files.set(day, file);
      }
      if (file.append(report)) counts.written += 1;
      else counts.skipped += 1;
    },
    { ...connection, concurrency: 1 },
  );
  worker.on("failed", (job, error) => options.log?.(`report ${job?.id} not exported: ${error.message}`));
  const queue = new Queue(reportingQueue.queue, { ...connection, ...shortEventStream });
  try {
    if (!options.untilIdle) {
      // Runs until stopped; the job in hand is finished (written and acknowledged) first.
      const { stop } = options;
      await new Promise<void>((resolve) => {
        if (stop?.aborted) resolve();
        stop?.addEventListener("abort", () => resolve());
      });
      return counts;
    }
    for (let idle = 0; idle < 3 && !options.stop?.aborted; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const left = await queue.getJobCounts("wait", "active", "delayed", "prioritized");
      idle = Object.values(left).every((count) => count === 0) ? idle + 1 : 0;
    }
  } finally {
    await worker.close();
    await queue.close();
    for (const file of files.values()) file.close();
    rejected.close();
  }
  return counts;
}

/** Reports written, already in their day file, and jobs that were no report (kept in `rejectedFileName`). */
export interface ExportCounts {
  written: number;
  skipped: number;
  rejected: number;
}

/** Where jobs that are no round report of any version are kept, one JSON line each. */
export const rejectedFileName = "rejected-reports.ndjson";

/** The rejected jobs' file, opened on the first one: `{jobId, problem, data}` a line, made durable. */
class RejectedFile {
  private fd: number | undefined;

  constructor(private readonly path: string) {}

  append(jobId: string, data: unknown, error: unknown): void {
    this.fd ??= openSync(this.path, "a");
    const problem = error instanceof Error ? error.message : String(error);
    writeSync(this.fd, `${JSON.stringify({ jobId, problem: problem.slice(0, 1_000), data })}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}
