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

  launch(): void {
    if (this.alive) throw new Error(`${this.name} is already running`);
    const log = createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(this.command, this.args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
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
