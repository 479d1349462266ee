import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import { pause } from "./pause.ts";

/** MariaDB SIGKILLed, down for the fault's duration, restarted: crash recovery keeps what was committed. */
export async function killMariaDb(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const server = system.faults.mariadb;
  await server.signal("SIGKILL");
  await pause(fault.durationMs);
  await server.restart();
  return "killed and restarted";
}

/** Redis SIGKILLed and restarted empty (it keeps nothing on disk): queues, replies, heartbeats, acknowledgement log gone. */
export async function restartRedisEmpty(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const { redis } = system.faults;
  await redis.signal("SIGKILL");
  await pause(fault.durationMs);
  await redis.restart();
  return "restarted empty";
}

/** A server frozen (SIGSTOP) for the fault's duration, then woken: every connection to it hangs meanwhile. */
export async function freezeServer(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const server = fault.kind === "mariadb-freeze" ? system.faults.mariadb : system.faults.redis;
  await server.signal("SIGSTOP");
  try {
    await pause(fault.durationMs);
  } finally {
    await server.signal("SIGCONT");
  }
  return "frozen";
}
