import { createRedis } from "@wallet/queue/redis";
import { redisTarget } from "@wallet/queue/redis-env";
import { FolderLocked } from "@wallet/worker/folder-lock";
import { exportReports } from "@wallet/worker/reporting-export";
import { demoEnv } from "./env.ts";

/**
 * Takes the round reports off the reporting queue as the reporting team's consumer does
 * (`pnpm reporting:export --until-idle`: NDJSON day files, each report acknowledged once on disk),
 * and says in one line how many it took. `npm start` then keeps an exporter running on the same
 * folder (scripts/start.sh) for the rounds played afterwards.
 */
export async function consumeReports(): Promise<string> {
  const redis = createRedis(redisTarget(demoEnv), "demo-reporting-export");
  try {
    const counts = await exportReports({
      redis,
      prefix: demoEnv.REDIS_PREFIX,
      dir: demoEnv.DEMO_REPORTS_DIR,
      untilIdle: true,
    });
    return (
      `round reports: ${counts.written + counts.skipped + counts.rejected} consumed from the reporting queue into ${demoEnv.DEMO_REPORTS_DIR} ` +
      `(${counts.written} new, ${counts.skipped} already there${counts.rejected > 0 ? `, ${counts.rejected} not a report, kept aside` : ""}); none left unread`
    );
  } catch (error) {
    // Someone runs their own exporter on that folder: it consumes them, and this one must not.
    if (error instanceof FolderLocked)
      return `round reports: left to the exporter already running (${error.message})`;
    throw error;
  } finally {
    redis.disconnect();
  }
}
