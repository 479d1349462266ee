import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

/** Every server child of this process: killed when it exits, so a crashed test never leaves one running. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * One database or cache server process of the suite's own, started in the foreground so its pid is
 * ours to signal (SIGKILL, SIGSTOP, SIGCONT). Its output goes to `logFile`.
 */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly logFile: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** `onceArgs` follow the usual arguments, for this launch only. */
  launch(onceArgs: string[] = []): void {
    if (this.alive) throw new Error(`${this.name} is already running`);
    const log = createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(this.command, [...this.args, ...onceArgs], { stdio: ["ignore", "pipe", "pipe"] });
    // Both outputs into one file, which is ended once both are closed: a piped stream ends its
    // destination when it ends, and a child of the server (a Galera node's state-transfer script) may
    // still write to stderr after stdout has closed: a write after end, thrown as uncaught.
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once("close", () => log.end());
    log.on("error", () => {});
    running.add(child);
    this.exited = new Promise((resolve) =>
      child.once("exit", () => {
        running.delete(child);
        resolve();
      }),
    );
    this.child = child;
  }

  /** Sends `signal` and, unless it only pauses or resumes, waits for the process to be gone. */
  async signal(signal: NodeJS.Signals): Promise<void> {
    if (!this.alive) return;
    this.child?.kill(signal);
    if (signal !== "SIGSTOP" && signal !== "SIGCONT") await this.exited;
  }
}
