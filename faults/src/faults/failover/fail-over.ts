import type { FaultSystem } from "../../harness/fault-system.ts";
import type { ReplicatedMariaDb } from "../../servers/replicated-mariadb.ts";

export interface FailoverTimes {
  /** When the primary was killed (performance.now()). */
  killedAt: number;
  /** From the kill to the replica promoted and the wallet's address moved to it. */
  promotedAfterMs: number;
}

/**
 * A primary's death and what a failover tool does about it, with no app restarted or reconfigured:
 * SIGKILL the primary, promote the replica (it applies all it received first), move the wallet's
 * address to it.
 */
export async function killAndFailOver(
  system: FaultSystem,
  database: ReplicatedMariaDb,
): Promise<FailoverTimes> {
  const killedAt = performance.now();
  await database.primary.stop();
  const promoted = await database.promote();
  system.moveDatabase(promoted);
  return { killedAt, promotedAfterMs: Math.round(performance.now() - killedAt) };
}
