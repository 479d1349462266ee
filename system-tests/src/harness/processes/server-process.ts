import { isRunning, type Launched, launch, signalProcess } from "./launch.ts";

/**
 * A server binary of a suite's own (MariaDB, Redis, Prometheus, mysqld_exporter), in the foreground
 * so its pid is ours to signal (SIGKILL, SIGSTOP, SIGCONT), and started again on the same arguments
 * after a crash. Its output goes to `logFile`; readiness is its owner's probe (`until`).
 */
export class ServerProcess {
  private current: Launched | undefined;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly logFile: string,
  ) {}

  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  get alive(): boolean {
    return this.current !== undefined && isRunning(this.current);
  }

  /** `onceArgs` follow the usual arguments, for this launch only. */
  launch(onceArgs: string[] = []): void {
    if (this.alive) throw new Error(`${this.name} is already running`);
    this.current = launch({
      name: this.name,
      command: this.command,
      args: [...this.args, ...onceArgs],
      output: { file: this.logFile },
    });
  }

  /** Sends `signal` and, unless it only pauses or resumes, waits for the process to be gone. */
  async signal(signal: NodeJS.Signals): Promise<void> {
    if (this.current && this.alive) await signalProcess(this.current, signal);
  }
}
