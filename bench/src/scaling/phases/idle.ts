import { setTimeout as sleep } from "node:timers/promises";
import type { SeededWithTournament } from "../../seed.ts";
import type { ScalingRun, SystemA } from "../context.ts";
import type { Meter } from "../counters.ts";
import { idleWindow } from "../window.ts";

/**
 * idle: starts system A (1 worker, a gateway, 32 partitions) and measures 10 s of it doing nothing.
 * Every phase on system A takes this background out of its per-callback counts, and the document
 * quotes it as the standing cost of partitions (polls, heartbeats, gauges).
 */
export async function idlePhase(
  run: ScalingRun,
  seeded: SeededWithTournament,
  meter: Meter,
): Promise<SystemA> {
  run.say("==> system A: 1 worker, 1 gateway, 32 partitions");
  const system = await run.systems.start({ partitions: 32, workers: 1, database: run.servers.databaseUrl });
  run.results.redisClientsA = system.redisClients;
  // Past the start-up burst (connections, first polls, script loads) before the window opens.
  await sleep(3_000);
  const idle = await idleWindow(meter, 10);
  run.results.idleA = idle;
  run.say(
    `  idle: ${JSON.stringify({ redis: idle.redis, cpuMs: idle.cpuMs, questions: idle.mysql.Questions })}`,
  );
  return {
    db: seeded.database.db,
    meter,
    players: seeded.players,
    tournamentId: seeded.tournamentId,
    system,
    idle,
  };
}
