import { fork } from "node:child_process";
import { CpuMeter } from "./cpu.ts";
import type { LoadConfig, LoadMessage, LoadSummary } from "./load/config.ts";
import { repoRoot } from "./processes.ts";

/**
 * One load run in a process of its own (so its CPU is measured apart). CPU of every process group
 * is metered from the start of the measured window until `afterWindow` resolves: the benchmark
 * waits there for the window's side effects, so work a side defers past the window is still
 * charged to it.
 */
export function runLoad<T>(
  config: LoadConfig,
  groups: () => Record<string, number[]>,
  env: Record<string, string>,
  afterWindow: () => Promise<T>,
  /** Called as the measured window opens (server counters are read there). */
  onWindow: () => void = () => {},
): Promise<{ summary: LoadSummary; cpuSeconds: Record<string, number>; after: T }> {
  const child = fork(`${repoRoot}bench/src/load/main.ts`, [], {
    execArgv: ["--import", "tsx"],
    env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const meter = new CpuMeter(() => ({ ...groups(), load: [child.pid ?? 0] }));
  let summary: LoadSummary | undefined;
  let metered: { cpuSeconds: Record<string, number>; after: T } | undefined;
  return new Promise((resolve, reject) => {
    const settle = () => {
      if (summary && metered) resolve({ summary, ...metered });
    };
    child.on("message", (message: LoadMessage) => {
      if (message.type === "measuring") {
        meter.start();
        onWindow();
      }
      if (message.type === "measured") {
        meter.sample();
        afterWindow()
          .then((after) => {
            metered = { cpuSeconds: meter.stop(), after };
            settle();
          })
          .catch(reject);
      }
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
