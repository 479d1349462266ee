import { resolve } from "node:path";
import { createRedis } from "@wallet/queue/redis";
import { redisTarget } from "@wallet/queue/redis-env";
import { readWorkerEnv } from "../env.ts";
import { FolderLocked } from "../folder-lock.ts";
import { exportReports, rejectedFileName } from "../reporting-export.ts";

/**
 * pnpm reporting:export [--out <folder>] [--until-idle]
 *   takes the round reports off the `reporting` queue into `<folder>/round-reports-<day>.ndjson`
 *   (default folder `./reports`), one JSON report a line (docs/schemas/round-report.schema.json).
 *   Runs until stopped, or with --until-idle until the queue is empty. Safe to stop or kill at any
 *   moment and run again: nothing is skipped or written twice.
 *   One folder takes one exporter: it holds `<folder>/.reporting-export.lock` (pid, host, start time)
 *   while it runs and deletes it on exit, SIGTERM or SIGINT. A second exporter on that folder exits at
 *   once, naming the holder. A lock whose pid is gone from this host (an exporter SIGKILLed, a crashed
 *   machine) is taken over with a log line; one from another host is never: delete it by hand.
 * Reads REDIS_URL / REDIS_CLUSTER_NODES and REDIS_PREFIX.
 *   A job that is no round report of any version (version 1 reports are written as version 2) is
 *   kept whole in `<folder>/rejected-reports.ndjson` and counted; the export goes on.
 * Exit codes: 0 done (or stopped), 1 failed, 2 usage, 3 the folder has another exporter (its lock),
 * 4 done, but some jobs were no round report (kept in rejected-reports.ndjson).
 */
/** Exit code of an exporter that found its folder locked by another: distinct, so a supervisor can tell. */
const exitFolderLocked = 3;
const exitRejected = 4;
const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const folder = outAt >= 0 ? args[outAt + 1] : "reports";
const known = (arg: string, index: number) =>
  arg === "--until-idle" || (outAt >= 0 && (index === outAt || index === outAt + 1));
if (!folder || folder.startsWith("--") || !args.every(known)) {
  console.error("usage: reporting:export [--out <folder>] [--until-idle]");
  process.exit(2);
}
const env = readWorkerEnv();
// pnpm runs the script in apps/worker: a relative folder means the one the user ran pnpm from.
const dir = resolve(env.INIT_CWD ?? process.cwd(), folder);
const redis = createRedis(redisTarget(env), "reporting-export");
const stop = new AbortController();
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop.abort());
const counts = await exportReports({
  redis,
  prefix: env.REDIS_PREFIX,
  dir,
  untilIdle: args.includes("--until-idle"),
  log: (line) => console.error(line),
  stop: stop.signal,
}).catch((error: unknown) => {
  if (!(error instanceof FolderLocked)) throw error;
  console.error(`reporting:export: not started: ${error.message}`);
  process.exit(exitFolderLocked);
});
console.log(
  `${counts.written} report(s) written to ${dir}, ${counts.skipped} already there` +
    (counts.rejected > 0 ? `, ${counts.rejected} not a round report (kept in ${rejectedFileName})` : ""),
);
redis.disconnect();
if (counts.rejected > 0) process.exitCode = exitRejected;
