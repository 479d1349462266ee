import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The environment the benchmark's child processes start from (PATH and friends, no secrets of ours). */
export function inheritedEnv(
  source: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const keep = ["PATH", "HOME", "NODE_OPTIONS", "TMPDIR"];
  return Object.fromEntries(keep.flatMap((name) => (source[name] ? [[name, source[name] as string]] : [])));
}

export interface RunningApp {
  name: string;
  child: ChildProcess;
  pid: number;
  port?: number;
  logs: string[];
  /** Warn-or-worse log lines: how many, and the first few. */
  problems: { count: number; first: string[] };
}

/**
 * Starts one app as production does (`node --import tsx src/main.ts` in its folder) and resolves
 * once it logs its ready line. `cpuProfileDir` adds `--cpu-prof`: the profile is written when it exits.
 */
export function startApp(options: {
  name: string;
  /** Folder of the app, from the repository root. */
  cwd: string;
  entry?: string;
  env: Record<string, string>;
  /** Log text that means it is serving. */
  ready: string;
  cpuProfileDir?: string;
}): Promise<RunningApp> {
  const { name, env, ready, cpuProfileDir } = options;
  // A folder per app: tsx's module-hooks thread writes a (small) profile of its own next to the main one.
  const profile = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}/${name}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", options.entry ?? "src/main.ts"], {
    cwd: `${repoRoot}${options.cwd}`,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const app: RunningApp = { name, child, pid: child.pid ?? 0, logs: [], problems: { count: 0, first: [] } };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start:\n${app.logs.join("\n")}`)),
      30_000,
    );
    let partial = "";
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        app.logs.push(line);
        if (app.logs.length > 200) app.logs.shift();
        if (/"level":[456]\d/.test(line)) {
          app.problems.count += 1;
          if (app.problems.first.length < 5) {
            app.problems.first.push(line);
            console.error(`  [${name}] ${line}`); // at once: a run that hangs still shows why
          }
        }
        if (!line.includes(ready)) continue;
        try {
          app.port = (JSON.parse(line) as { port?: number }).port;
        } catch {
          // not JSON
        }
        clearTimeout(timer);
        resolve(app);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${app.logs.join("\n")}`));
    });
  });
}

/**
 * SIGTERM, then wait for the exit (a CPU profile is written on the way out). An app still running
 * 20 s later is killed and counted as a problem: a shutdown that hangs must not hang the benchmark.
 */
export function stopApp(app: RunningApp): Promise<void> {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => {
      const line = `${app.name} did not stop within 20 s of SIGTERM; killed. Its last lines:\n${app.logs.slice(-20).join("\n")}`;
      app.problems.count += 1;
      app.problems.first.push(line);
      console.error(line);
      app.child.kill("SIGKILL");
    }, 20_000);
    app.child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    app.child.kill("SIGTERM");
  });
}
