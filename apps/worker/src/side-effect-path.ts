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
 * A worker thread running `entry`. The apps run their TypeScript through tsx (`node --import tsx`),
 * whose loader a thread does not inherit: a .ts entry is imported after registering it.
 */
function spawn(entry: URL, workerData: unknown): Worker {
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry, { workerData });
  const tsx = import.meta.resolve("tsx/esm/api");
  const source = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(source, { eval: true, workerData });
}
