import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface AppProcess {
  name: string;
  child: ChildProcess;
  port?: number;
  /** Where its Prometheus metrics are served (every app logs it at boot). */
  metricsPort?: number;
  /** Every line it wrote to stdout and stderr, in order: the only way to see inside it. */
  logs: string[];
  exited: Promise<number | null>;
}

export interface SpawnOptions {
  /** The app's folder under apps/ (gateway, worker, operator-api, platform-sim). */
  app: string;
  env: Record<string, string>;
  /** Log text that means it is serving; its JSON line may carry `port` and `metricsPort`. */
  ready: string;
  /** Extra node flags, after tsx is loaded: e.g. `--import` of a TypeScript test preload. */
  nodeArgs?: string[];
  startTimeoutMs?: number;
  /** Told of the process at once, before it is ready: one that never gets ready is still cleaned up. */
  track?: (proc: AppProcess) => void;
}

/**
 * Starts one app with the production command (`node --import tsx src/main.ts` in its folder) and
 * resolves once it logs its ready line; rejects with its log if it exits or hangs first.
 */
export function spawnApp(options: SpawnOptions): Promise<AppProcess> {
  const { app, env, ready } = options;
  const child = spawn(process.execPath, ["--import", "tsx", ...(options.nodeArgs ?? []), "src/main.ts"], {
    cwd: `${repoRoot}apps/${app}`,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc: AppProcess = {
    name: app,
    child,
    logs: [],
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  options.track?.(proc);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${app} did not start:\n${proc.logs.join("\n")}`)),
      options.startTimeoutMs ?? 20_000,
    );
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        proc.logs.push(line);
        if (!line.includes(ready)) continue;
        try {
          const parsed = JSON.parse(line) as { port?: number; metricsPort?: number };
          proc.port = parsed.port;
          proc.metricsPort = parsed.metricsPort;
        } catch {
          // not a JSON line
        }
        clearTimeout(timer);
        resolve(proc);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code}:\n${proc.logs.join("\n")}`));
    });
  });
}

/** SIGTERM (graceful) or SIGKILL (crash); resolves when the process is gone. */
export async function stopApp(proc: AppProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  return proc.exited;
}
