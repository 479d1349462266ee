import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { inheritedEnvWithoutRedis } from "./env.ts";

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

/**
 * `rounds:at-risk` on a test's ledger, run from the repository's root: through pnpm as the runbook
 * says (`viaPnpm`), else straight with tsx (faster). The environment is this process's without any
 * Redis setting, plus `env`: the acknowledgement log is read only where a test names a Redis.
 */
export function runRoundsAtRisk(
  databaseUrl: string,
  args: string[],
  options: { viaPnpm?: boolean; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const env = { ...inheritedEnvWithoutRedis(), DATABASE_URL: databaseUrl, ...options.env };
  const cwd = fileURLToPath(new URL("../../../../", import.meta.url));
  return options.viaPnpm
    ? runCli("pnpm", ["--silent", "rounds:at-risk", ...args], { cwd, env })
    : runCli(
        process.execPath,
        ["--import", "tsx", "packages/ledger/src/cli/rounds-at-risk.cli.ts", ...args],
        {
          cwd,
          env,
        },
      );
}
