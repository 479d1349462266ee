import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { launch, repoRoot } from "@wallet/system-tests/harness/processes/launch";
import { CpuMeter } from "./cpu.ts";
import type { LoadConfig, LoadMessage, LoadSummary } from "./load/config.ts";

/** What a caller does as the load's measured window opens and closes (run in that order). */
export interface WindowHooks {
  /** The load process's pid, as soon as it is forked (to meter its CPU). */
  forked?: (pid: number) => void;
  measuring: () => void | Promise<void>;
  /** May wait for the window's side effects: the summary is returned only once this is done. */
  measured: () => void | Promise<void>;
}

/**
 * Forks the load process (src/load/) with `config` over IPC, in a process of its own so its CPU is
 * measured apart, and resolves with its summary once the `measured` hook has finished too. `pnpm
 * bench` and the scaling study both drive their load through here.
 */
export function forkLoad(config: LoadConfig, hooks: WindowHooks): Promise<LoadSummary> {
  const { child } = launch({
    name: "load",
    command: process.execPath,
    args: ["--import", "tsx", `${repoRoot}bench/src/load/main.ts`],
    env: inheritedEnv(),
    output: "inherit",
    ipc: true,
  });
  hooks.forked?.(child.pid ?? 0);
  let summary: LoadSummary | undefined;
  let measured = false;
  return new Promise((resolve, reject) => {
    const settle = () => {
      if (summary && measured) resolve(summary);
    };
    // Hooks run one after another: a slow `measuring` (a counter snapshot) never overlaps `measured`.
    let hooksDone: Promise<void> = Promise.resolve();
    const queue = (hook: () => void | Promise<void>) => {
      hooksDone = hooksDone.then(hook);
      hooksDone.catch(reject);
    };
    child.on("message", (message: LoadMessage) => {
      if (message.type === "measuring") queue(hooks.measuring);
      if (message.type === "measured")
        queue(async () => {
          await hooks.measured();
          measured = true;
          settle();
        });
      if (message.type === "summary") {
        summary = message.summary;
        settle();
      }
      if (message.type === "error") reject(new Error(`load failed: ${message.message}`));
    });
    child.once("exit", () => {
      if (!summary) reject(new Error("load process exited without a summary"));
    });
    child.send(config);
  });
}

/**
 * One `pnpm bench` load run. CPU of every process group (and the load's own, as `load`) is metered
 * from the start of the measured window until `afterWindow` resolves: the benchmark waits there for
 * the window's side effects, so work a side defers past the window is still charged to it.
 */
export async function runLoad<T>(
  config: LoadConfig,
  groups: () => Record<string, number[]>,
  afterWindow: () => Promise<T>,
  /** Called as the measured window opens (server counters are read there). */
  onWindow: () => void = () => {},
): Promise<{ summary: LoadSummary; cpuSeconds: Record<string, number>; after: T }> {
  let load = 0;
  const meter = new CpuMeter(() => ({ ...groups(), load: [load] }));
  let metered: { cpuSeconds: Record<string, number>; after: T } | undefined;
  const summary = await forkLoad(config, {
    forked: (pid) => {
      load = pid;
    },
    measuring: () => {
      meter.start();
      onWindow();
    },
    measured: async () => {
      meter.sample();
      const after = await afterWindow();
      metered = { cpuSeconds: meter.stop(), after };
    },
  });
  if (!metered) throw new Error("load run without its CPU reading");
  return { summary, ...metered };
}
