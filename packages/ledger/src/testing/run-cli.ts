import { execFile } from "node:child_process";

export interface CliRun {
  /** The exit code (0 when it succeeded). */
  code: number;
  stdout: string;
  stderr: string;
}

/** A command-line tool run as an SRE runs it: its exit code and both outputs, whatever the code. */
export function runCli(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
