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
import type { RoundReport } from "@wallet/contracts/side-effects";
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
export async function exportReports(options: ExportOptions): Promise<{ written: number; skipped: number }> {
  mkdirSync(options.dir, { recursive: true });
  const release = await lockFolder(options.dir, options.log);
  options.log?.(`exporting the reporting queue to ${options.dir} (lock ${join(options.dir, lockFileName)})`);
  try {
    return await drainInto(options);
  } finally {
    release();
  }
}

async function drainInto(options: ExportOptions): Promise<{ written: number; skipped: number }> {
  const files = new Map<string, DayFile>();
  const counts = { written: 0, skipped: 0 };
  const connection = {
    connection: options.redis,
    prefix: redisNames(options.prefix).bullPrefix(reportingQueue.queue),
  };
  const worker = new Worker(
    reportingQueue.queue,
    async (job: Job) => {
      const report = reportingQueue.job.parse(job.data);
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
  }
  return counts;
}
