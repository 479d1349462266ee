import { isDatabaseRefused } from "@wallet/ledger/mysql-errors";
import type { Logger } from "@wallet/telemetry/logger";

/**
 * A boot step against the ledger, run again while the database refuses it for now: found read-only
 * or fenced (a failover under way, the address not yet on the new primary) or a session it cannot
 * set. Such a refusal is sent nothing and is a 503 once the worker serves; at boot it made the worker
 * exit 1, and a supervisor restarting it at once met the same window (the fault campaign's seed 3:
 * a worker restarted 3 s into a failover exited three times). It now waits that out with one log
 * line. Any other error still fails the boot at once, and so does a refusal past `waitMs`.
 */
export async function bootStep<T>(
  what: string,
  step: () => Promise<T>,
  logger: Logger,
  waitMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (!isDatabaseRefused(error) || Date.now() >= deadline) throw error;
      if (!told)
        logger.warn(
          { err: error, step: what },
          "database refuses for now (read-only or its session); boot waits",
        );
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
