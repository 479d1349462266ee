import { type Launched, launch, repoRoot, stopProcess } from "./launch.ts";

export interface AppProcess extends Launched {
  port?: number;
  /** Where its Prometheus metrics are served (every app logs it at boot). */
  metricsPort?: number;
  /** Warn-or-worse log lines: how many, and the first few. */
  problems: { count: number; first: string[] };
}

export interface AppOptions {
  name: string;
  /** Its folder, from the repository root (`apps/gateway`, `bench`). */
  cwd: string;
  /** From its folder. */
  entry?: string;
  env: Record<string, string>;
  /** Log text that means it is serving; its JSON line may carry `port` and `metricsPort`. */
  ready: string;
  /** Extra node flags, after tsx is loaded: e.g. `--import` of a TypeScript test preload. */
  nodeArgs?: string[];
  /** Adds `--cpu-prof`: the profile is written into `<dir>/<name>` when it exits. */
  cpuProfileDir?: string;
  startTimeoutMs?: number;
  /** Keeps only the last lines (a long benchmark); every line by default. */
  keepLines?: number;
  /** Prints its first warn-or-worse lines at once: a run that hangs still shows why. */
  echoProblems?: boolean;
  /** Told of the process at once, before it is ready: one that never gets ready is still cleaned up. */
  track?: (proc: AppProcess) => void;
}

/**
 * Starts one app with the production command (`node --import tsx src/main.ts` in its folder) and
 * resolves once it logs its ready line; rejects with its log if it exits or hangs first.
 */
export function startApp(options: AppOptions): Promise<AppProcess> {
  const { name, ready, cpuProfileDir } = options;
  // A folder per app: tsx's module-hooks thread writes a (small) profile of its own next to the main one.
  const profile = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}/${name}`] : [];
  const problems = { count: 0, first: [] as string[] };
  let onReady: (line: string) => void = () => {};
  const launched = launch({
    name,
    command: process.execPath,
    args: [...profile, "--import", "tsx", ...(options.nodeArgs ?? []), options.entry ?? "src/main.ts"],
    cwd: `${repoRoot}${options.cwd}`,
    env: options.env,
    output: {
      lines: {
        keep: options.keepLines,
        onLine: (line) => {
          if (/"level":[456]\d/.test(line)) {
            problems.count += 1;
            if (problems.first.length < 5) {
              problems.first.push(line);
              if (options.echoProblems) console.error(`  [${name}] ${line}`);
            }
          }
          if (line.includes(ready)) onReady(line);
        },
      },
    },
  });
  const proc: AppProcess = { ...launched, problems };
  options.track?.(proc);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start:\n${proc.logs.join("\n")}`)),
      options.startTimeoutMs ?? 20_000,
    );
    onReady = (line) => {
      onReady = () => {};
      try {
        const parsed = JSON.parse(line) as { port?: number; metricsPort?: number };
        proc.port = parsed.port;
        proc.metricsPort = parsed.metricsPort;
      } catch {
        // not a JSON line
      }
      clearTimeout(timer);
      resolve(proc);
    };
    void proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${proc.logs.join("\n")}`));
    });
  });
}

/**
 * SIGTERM (graceful; a CPU profile is written on the way out) or SIGKILL (a crash); resolves with its
 * exit code once it is gone. One still running 20 s after SIGTERM is killed and counted as a problem.
 */
export function stopApp(proc: AppProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  return stopProcess(proc, signal, {
    onHang: () => {
      const line = `${proc.name} did not stop within 20 s of ${signal}; killed. Its last lines:\n${proc.logs.slice(-20).join("\n")}`;
      proc.problems.count += 1;
      proc.problems.first.push(line);
      console.error(line);
    },
  });
}
