import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inheritedEnv } from "@wallet/system-tests/harness/env";
import { type Launched, launch, repoRoot, stopProcess } from "@wallet/system-tests/harness/processes/launch";

export interface Contention {
  /** What runs: Debian's stress-ng, or the Node stand-in when it is missing. */
  what: string;
  stop: () => Promise<void>;
}

const onPath = (program: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * CPU and disk contention beside the stack, at the stack's priority (our nice level: the launcher
 * starts it as it starts the apps): `stress-ng --cpu 4 --hdd 2` (scripts/bench-closes.sh installs it
 * from Debian), else `hog.ts`, which does the same work in Node. A CPU hog alone did not reproduce
 * issue 39's loss: the disk writers are what slow MariaDB's commits. Started by the shared launcher,
 * so it ends with the benchmark however the benchmark ends; its files are in a temporary folder.
 */
export function startContention(): Contention {
  const folder = mkdtempSync(join(tmpdir(), "bench-closes-contention-"));
  const stressNg = onPath("stress-ng");
  const proc: Launched = stressNg
    ? launch({
        name: "stress-ng",
        command: "stress-ng",
        args: ["--cpu", "4", "--hdd", "2", "--temp-path", folder],
        env: inheritedEnv(),
        output: { lines: { keep: 50 } },
      })
    : launch({
        name: "hog",
        command: process.execPath,
        args: ["--import", "tsx", `${repoRoot}bench/src/closes/hog.ts`, folder],
        env: inheritedEnv(),
        cwd: repoRoot,
        output: { lines: { keep: 50 } },
      });
  return {
    what: stressNg
      ? "stress-ng --cpu 4 --hdd 2"
      : "hog.ts (stress-ng missing): 4 busy loops, 2 fsync writers",
    stop: async () => {
      await stopProcess(proc, "SIGTERM", { graceMs: 5_000 });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
