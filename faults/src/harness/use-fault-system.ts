import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { afterAll, afterEach, beforeAll } from "vitest";
import { FaultSystem, type FaultSystemOptions } from "./fault-system.ts";
import { type LaunchedPlayer, launchPlayers } from "./platform-load.ts";

export interface RunningFaultSystem {
  system: FaultSystem;
  sim: AppProcess;
  players: LaunchedPlayer[];
}

/**
 * A test file's whole system on servers of its own: `workers` workers, one gateway behind the
 * front proxy, the platform simulator and `players` launched players. Read the fields inside tests.
 */
export interface AppOverrides {
  env?: Record<string, string>;
  nodeArgs?: string[];
}

export function useFaultSystem(
  options: FaultSystemOptions & {
    workers?: number;
    players?: number;
    /** Environment and node flags for the workers only, or the gateway only (e.g. a skewed clock). */
    worker?: AppOverrides;
    gateway?: AppOverrides;
  } = {},
): RunningFaultSystem {
  const running = {} as RunningFaultSystem;
  beforeAll(async () => {
    running.system = await FaultSystem.start(options);
    const { worker, gateway } = options;
    await Promise.all(
      Array.from({ length: options.workers ?? 2 }, () =>
        running.system.startWorker(worker?.env, worker?.nodeArgs),
      ),
    );
    await running.system.startGateway(gateway?.env, gateway?.nodeArgs);
    running.sim = await running.system.startPlatformSim();
    running.players = await launchPlayers(running.system, running.sim, options.players ?? 12);
  }, 120_000);
  // A failing scenario shows what every process logged last: the only way to see inside them.
  afterEach((context) => {
    if (context.task.result?.state !== "fail" || !running.system) return;
    for (const proc of running.system.processes) {
      console.error(
        `--- last log lines of ${proc.name} (pid ${proc.child.pid}) ---\n${proc.logs.slice(-20).join("\n")}`,
      );
    }
  });
  afterAll(async () => {
    await running.system?.shutdown();
  }, 60_000);
  return running;
}
