import type { ScheduledFault } from "../schedule/catalog.ts";
import type { CampaignSystem } from "../system.ts";
import type { PlatformCalls } from "../workload/platform-calls.ts";
import { deadlockStorm, forceRetention, heavyClose, hostileBurst } from "./input-faults.ts";
import { delayLink, partitionLink, resetLink } from "./link-faults.ts";
import { freezeProcess, killProcess, skewClock } from "./process-faults.ts";
import {
  failOver,
  freezeServer,
  killMariaDb,
  restartRedisEmpty,
  stormThroughThirdNode,
} from "./server-faults.ts";

export interface InjectionContext {
  system: CampaignSystem;
  calls: PlatformCalls;
  tag: string;
}

export interface Injected {
  fault: ScheduledFault;
  /** When it really started and ended, ms from the load's start (it may start late: the machine's noise). */
  startedMs: number;
  endedMs: number;
  note: string;
  /** What the fault itself saw go wrong (a hostile request answered wrongly): violations. */
  problems: string[];
}

/** Injects one fault and resolves once it is healed. */
export async function inject(
  context: InjectionContext,
  fault: ScheduledFault,
): Promise<{ note: string; problems: string[] }> {
  const { system } = context;
  const note = (text: Promise<string>) => text.then((value) => ({ note: value, problems: [] }));
  switch (fault.kind) {
    case "sigkill":
      return note(killProcess(system, fault));
    case "sigstop":
      return note(freezeProcess(system, fault));
    case "clock-skew":
      return note(skewClock(system, fault));
    case "mariadb-kill":
      return note(killMariaDb(system, fault));
    case "redis-restart-empty":
      return note(restartRedisEmpty(system, fault));
    case "mariadb-freeze":
    case "redis-freeze":
      return note(freezeServer(system, fault));
    case "latency":
      return note(delayLink(system, fault));
    case "reset":
      return note(resetLink(system, fault));
    case "partition":
      return note(partitionLink(system, fault));
    case "deadlock-storm":
      return note(deadlockStorm(system, fault));
    case "hostile":
      return hostileBurst(system, fault);
    case "heavy-close":
      return note(heavyClose(context.calls, fault, context.tag));
    case "retention":
      return note(forceRetention(system));
    case "failover":
      return note(failOver(system, fault));
    case "certification-storm":
      return note(stormThroughThirdNode(system, fault));
  }
}
