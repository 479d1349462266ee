import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import { pause } from "./pause.ts";

/** SIGKILL of the role's process, down for the fault's duration, then a replacement (as an orchestrator). */
export async function killProcess(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const victim = system.victim(fault.target);
  if (victim) await system.faults.stop(victim, "SIGKILL");
  await pause(fault.durationMs);
  await system.heal(fault.target);
  return victim ? `pid ${victim.child.pid} killed` : "no live process";
}

/** SIGSTOP of the role's process for the fault's duration, then SIGCONT: a process that hangs and comes back. */
export async function freezeProcess(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const victim = system.victim(fault.target);
  const pid = victim?.child.pid;
  if (!victim || pid === undefined || victim.child.exitCode !== null) return "no live process";
  try {
    process.kill(pid, "SIGSTOP");
  } catch {
    // Killed by an overlapping fault since it was picked (ESRCH): nothing left to freeze.
    return "no live process";
  }
  try {
    await pause(fault.durationMs);
  } finally {
    // Killed meanwhile (by another fault's replacement) is fine: nothing left to wake.
    try {
      process.kill(pid, "SIGCONT");
    } catch {}
  }
  return `pid ${pid} frozen`;
}

/** The role restarted with its wall clock `skewMs` off, for the fault's duration, then restarted true. */
export async function skewClock(system: CampaignSystem, fault: ScheduledFault): Promise<string> {
  const skewMs = fault.detail.skewMs ?? 0;
  await system.restartSkewed(fault.target, skewMs);
  await pause(fault.durationMs);
  await system.restartSkewed(fault.target, 0);
  return `clock ${skewMs} ms off`;
}
