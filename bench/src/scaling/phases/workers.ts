import { setTimeout as sleep } from "node:timers/promises";
import type { SeededWithTournament } from "../../seed.ts";
import type { ScalingRun } from "../context.ts";
import type { Meter } from "../counters.ts";
import { meteredLoad } from "../metered-load.ts";
import { idleWindow } from "../window.ts";

/**
 * workers: what more workers and more partitions cost. Two workers on 32 partitions (idle, then
 * under the first concurrency's load: do they share the work and Redis?) and one worker on 128
 * partitions idle (the standing cost of a partition: polls and heartbeats grow with the count).
 */
export async function workersPhase(
  run: ScalingRun,
  seeded: SeededWithTournament,
  meter: Meter,
): Promise<void> {
  const db = seeded.database.db;
  const configs = [
    { partitions: 32, workers: 2, load: true },
    { partitions: 128, workers: 1, load: false },
  ];
  const out = [];
  for (const config of configs) {
    run.say(`==> ${config.workers} worker(s), ${config.partitions} partitions`);
    const system = await run.systems.start({ ...config, database: run.servers.databaseUrl });
    await sleep(3_000);
    const idle = await idleWindow(meter, 10);
    const concurrency = run.settings.SCALING_CONCURRENCY[0];
    const result =
      config.load && concurrency !== undefined
        ? await meteredLoad(run, meter, db, system, seeded.players, concurrency)
        : undefined;
    out.push({ ...config, redisClients: system.redisClients, idle, run: result });
    run.say(`  ${JSON.stringify(out.at(-1))}`);
    await run.systems.stop(system);
  }
  run.results.workers = out;
}
