import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Logger } from "@wallet/telemetry/logger";
import { type CountedMessage, countForwarded, type WorkerMetrics } from "./metrics.ts";

/** What the main thread asks of the side-effect thread. */
export type ThreadRequest = { type: "stop" };
/** What the side-effect thread tells the main thread: a counter moved, or it has stopped. */
export type ThreadMessage = CountedMessage | { type: "stopped" };

export interface SideEffectPath {
  /** Stops the relay, retention and consumers (each finishes what it holds), then the thread. */
  stop(): Promise<void>;
}

const STOP_WAIT_MS = 20_000;

/**
 * Starts the side-effect path (`side-effects.thread.ts`) on a worker thread: a close of 620,000
 * bets took the single event loop for seconds, the ledger's job locks lapsed and other players'
 * callbacks got 503s (issue 31). On a thread of its own the side-effect work can take the CPU it
 * needs but never the ledger's event loop. Its counters are the main thread's (`metrics`), moved by
 * the increments it posts. The thread dying is a crash of the worker: `onCrash` (the process exits
 * and is restarted; the jobs it held are taken back, and effects are receipted, so none is lost or
 * applied twice).
 */
export function startSideEffectPath(deps: {
  workerId: string;
  logger: Logger;
  metrics: WorkerMetrics;
  onCrash: (code: number) => void;
}): SideEffectPath {
  const thread = spawn(new URL("./side-effects.thread.ts", import.meta.url), { workerId: deps.workerId });
  let stopping = false;
  let stopped: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  thread.on("message", (message: ThreadMessage) => {
    if (message.type === "count") countForwarded(deps.metrics, message);
    else if (message.type === "stopped") stopped();
  });
  thread.on("error", (error) => deps.logger.fatal({ err: error }, "side-effect thread failed"));
  thread.on("exit", (code) => {
    stopped();
    if (stopping) return;
    deps.logger.fatal({ code }, "side-effect thread exited; the worker stops");
    deps.onCrash(code === 0 ? 1 : code);
  });
  return {
    stop: async () => {
      stopping = true;
      thread.postMessage({ type: "stop" } satisfies ThreadRequest);
      const timer = setTimeout(() => void thread.terminate(), STOP_WAIT_MS);
      await done;
      clearTimeout(timer);
      await thread.terminate();
    },
  };
}

/**
 * A worker thread running `entry`, with the process's `--import` preloads (a test's skewed clock,
 * say) run in it too. The apps run their TypeScript through tsx (`node --import tsx`), whose loader a
 * thread does not inherit: a thread given the same `--import` flags loads them before any TypeScript
 * loader and fails on a .ts one. So the thread gets the other flags, registers tsx itself, then
 * imports each preload and the entry in order.
 */
function spawn(entry: URL, workerData: unknown): Worker {
  const { preloads, execArgv } = withoutPreloads(process.execArgv);
  const steps = [
    ...(entry.pathname.endsWith(".ts")
      ? [
          `const { register } = await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}); register();`,
        ]
      : []),
    ...preloads
      .filter((preload) => preload !== "tsx")
      .map((preload) => `await import(${JSON.stringify(urlOf(preload))});`),
    `await import(${JSON.stringify(entry.href)});`,
  ];
  return new Worker(steps.join("\n"), { eval: true, workerData, execArgv });
}

/** The `--import` modules of a node command line, and its other flags. */
function withoutPreloads(args: string[]): { preloads: string[]; execArgv: string[] } {
  const preloads: string[] = [];
  const execArgv: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--import" && i + 1 < args.length) preloads.push(args[++i] as string);
    else if (arg.startsWith("--import=")) preloads.push(arg.slice("--import=".length));
    else execArgv.push(arg);
  }
  return { preloads, execArgv };
}

/** A preload as node resolved it: a path from the working folder, a URL, or a package. */
function urlOf(preload: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(preload)) return preload;
  if (preload.startsWith(".") || isAbsolute(preload)) return pathToFileURL(resolve(preload)).href;
  return import.meta.resolve(preload);
}
