import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { watchOverChildren } from "./orphan-reaper.ts";

// The one launcher of the project's processes, for the end-to-end tests, the fault, security and
// observability suites and the benchmark alike: `launch` here; an app as production starts it in
// app-process.ts, a server binary of a suite's own in server-process.ts, readiness probes in
// readiness.ts. Every child leads a process group of its own, and the group is killed when we exit,
// or, when we die without the chance (a signal node leaves unhandled, SIGKILL), by the watcher of
// orphan-reaper.ts: a crashed test or an interrupted `pnpm bench` leaves nothing running.

/** The repository's root folder, with a trailing slash. */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export interface Launched {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** What it wrote to stdout and stderr, line by line (empty when its output goes to a file or ours). */
  readonly logs: string[];
  /** Its exit code once it is gone (null when a signal ended it). */
  readonly exited: Promise<number | null>;
}

export type Output =
  /** Kept in `logs`, the last `keep` lines only if set; `onLine` sees each as it comes. */
  | { lines: { keep?: number; onLine?: (line: string) => void } }
  /** Both streams appended to a file (a server's log). */
  | { file: string }
  /** Our own stdout and stderr. */
  | "inherit";

export interface LaunchOptions {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  /** Its whole environment; ours when not given. */
  env?: Record<string, string>;
  output: Output;
  /** An IPC channel (`child.send`, "message" events), as `fork` gives. */
  ipc?: boolean;
}

/** Children not yet gone: their groups are killed when we exit. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) killGroup(child.pid, "SIGKILL");
});

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function launch(options: LaunchOptions): Launched {
  const { output } = options;
  const stream = output === "inherit" ? "inherit" : "pipe";
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", stream, stream, ...(options.ipc ? ["ipc" as const] : [])],
    detached: true, // a process group of its own, killed as one
  });
  const logs: string[] = [];
  if (output !== "inherit" && "file" in output) {
    const log = createWriteStream(output.file, { flags: "a" });
    // Both outputs into one file, ended once both are closed: a piped stream ends its destination
    // when it ends, and a child of the server (a Galera node's state-transfer script) may still write
    // to stderr after stdout has closed: a write after end, thrown as uncaught.
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once("close", () => log.end());
    log.on("error", () => {});
  } else if (output !== "inherit") {
    const { keep, onLine } = output.lines;
    const collect = (line: string) => {
      logs.push(line);
      if (keep !== undefined && logs.length > keep) logs.shift();
      onLine?.(line);
    };
    for (const source of [child.stdout, child.stderr]) if (source) splitLines(source, collect);
  }
  running.add(child);
  watchOverChildren(child.pid, true);
  const exited = new Promise<number | null>((resolve) => {
    const gone = (code: number | null) => {
      // What it started goes with it (a shell's background job, a server's helper script).
      killGroup(child.pid, "SIGKILL");
      running.delete(child);
      watchOverChildren(child.pid, false);
      resolve(code);
    };
    child.once("exit", gone);
    // It never started (no such program): told as an exit, so a caller waiting for it is not left hanging.
    child.on("error", (error) => {
      logs.push(`${options.name}: ${error.message}`);
      if (child.pid === undefined) gone(null);
    });
  });
  return { name: options.name, child, pid: child.pid ?? 0, logs, exited };
}

/**
 * For a program others start and which starts children (`pnpm bench`): ends it, as SIGTERM would,
 * once whoever started it is gone. Killing pnpm alone does not end the program it runs through a
 * shell (pnpm → sh → node): pnpm's SIGTERM ends the shell, and the program's parent changes; its
 * SIGKILL or SIGHUP leaves the shell, whose parent changes. Both are seen within a second.
 */
export function endWithParent(): void {
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  const watch = setInterval(() => {
    if (process.ppid !== parent || parentOf(parent) !== grandparent) process.kill(process.pid, "SIGTERM");
  }, 1_000);
  watch.unref();
}

/** The parent of `pid`, from Linux's /proc; undefined where that cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (name) state ppid …": the name may hold spaces and parentheses.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function splitLines(source: Readable, onLine: (line: string) => void): void {
  let partial = "";
  source.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  });
  source.once("end", () => {
    if (partial) onLine(partial);
  });
}

export const isRunning = (proc: Launched): boolean =>
  proc.child.exitCode === null && proc.child.signalCode === null;

/**
 * Sends `signal` to the process itself (a test means that process: the server, not a script it
 * runs). SIGSTOP and SIGCONT resolve at once; any other once the process is gone, with its exit code.
 */
export async function signalProcess(proc: Launched, signal: NodeJS.Signals): Promise<number | null> {
  if (!isRunning(proc)) return proc.exited;
  proc.child.kill(signal);
  if (signal === "SIGSTOP" || signal === "SIGCONT") return null;
  return proc.exited;
}

/**
 * Stops it with `signal` (SIGTERM: a graceful stop; SIGKILL: a crash) and resolves with its exit code
 * once it is gone. Still running `graceMs` after a gentler signal, it is killed and `onHang` is told:
 * a shutdown that hangs must not hang its caller.
 */
export function stopProcess(
  proc: Launched,
  signal: NodeJS.Signals = "SIGTERM",
  options: { graceMs?: number; onHang?: () => void } = {},
): Promise<number | null> {
  if (!isRunning(proc)) return proc.exited;
  proc.child.kill(signal);
  if (signal === "SIGKILL") return proc.exited;
  // A frozen (SIGSTOPped) process acts on the signal only once it runs again.
  proc.child.kill("SIGCONT");
  const killer = setTimeout(() => {
    options.onHang?.();
    proc.child.kill("SIGKILL");
  }, options.graceMs ?? 20_000);
  return proc.exited.finally(() => clearTimeout(killer));
}
