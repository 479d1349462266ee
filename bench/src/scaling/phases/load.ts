import type { ScalingRun, SystemA } from "../context.ts";
import { meteredLoad } from "../metered-load.ts";

/**
 * load: the benchmark's workload on system A at each `SCALING_CONCURRENCY`, every counter per
 * callback: what the Redis, MySQL and CPU budgets of the document are scaled from.
 */
export async function loadPhase(run: ScalingRun, a: SystemA): Promise<void> {
  const runs = [];
  for (const concurrency of run.settings.SCALING_CONCURRENCY) {
    run.say(
      `==> load: c${concurrency}, ${run.settings.SCALING_SECONDS} s, ${a.players.length} players, 32 partitions`,
    );
    const result = await meteredLoad(run, a.meter, a.db, a.system, a.players, concurrency);
    runs.push(result);
    run.say(`  ${JSON.stringify(result)}`);
  }
  run.results.load = runs;
}
