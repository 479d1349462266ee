import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { docBlock, repoRoot } from "@wallet/system-tests/docs/doc-blocks";
import { harnessPath } from "@wallet/system-tests/harness/env";
import { type Launched, launch, signalProcess } from "@wallet/system-tests/harness/processes/launch";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";

const run = promisify(execFile);
const scripts = fileURLToPath(new URL("../../../../scripts/", import.meta.url));

/** The operator's backup account, made by the runbook's `backup-account` block: the backup and archiver run as it. */
export const backupAccount = { name: "backup", host: "%", password: "faults-backup-3e9a" };
export const backupUrl = (server: MariaDbServer) =>
  `mysql://${backupAccount.name}:${backupAccount.password}@127.0.0.1:${server.port}`;
export const rootUrl = (server: MariaDbServer) => `mysql://root@127.0.0.1:${server.port}`;

/**
 * A HOME whose `.my.cnf` logs `mariadb` in as the server's administrator, as an operator's own
 * `[client]` options (or root on the database host) do: the runbook's `mariadb -e …` blocks run as written.
 */
export async function adminHome(server: MariaDbServer, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/.my.cnf`, `[client]\nhost=127.0.0.1\nport=${server.port}\nuser=root\n`, {
    mode: 0o600,
  });
  return dir;
}

export interface ScriptRun {
  code: number;
  stdout: string;
  /** Its stderr without the terminal colours `fail` wraps the last line in. */
  stderr: string;
}

/** One of the operator's scripts, run for real; what it printed and its exit code, failing or not. */
export async function runScript(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ScriptRun> {
  try {
    const { stdout, stderr } = await run("bash", [`${scripts}${name}`, ...args], {
      env: { PATH: harnessPath, ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout: plain(stdout), stderr: plain(stderr) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof code === "number" ? code : -1,
      stdout: plain(stdout ?? ""),
      stderr: plain(stderr ?? ""),
    };
  }
}

/** The escape that starts a terminal colour (`say` and `fail` in scripts/lib.sh). */
const esc = String.fromCharCode(27);
const plain = (text: string) => text.replaceAll(new RegExp(`${esc}\\[[0-9;]*m`, "g"), "");

/** The last line a script wrote to a stream: what a service manager's log shows first. */
export const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

/**
 * A doc's run block that runs until stopped (the runbook's archiver, a service): started as a reader
 * pasting it would (bash -e -o pipefail, from the repository's root, the placeholders in `env`), in a
 * process group of its own, its output appended to `logFile`. `stop` ends it as its service manager
 * would (SIGTERM); a test process that dies takes it along (launch.ts).
 */
export function startDocBlock(ref: string, env: Record<string, string>, logFile: string) {
  const launched: Launched = launch({
    name: ref,
    command: "bash",
    args: ["-e", "-o", "pipefail", "-c", docBlock(ref).text],
    cwd: repoRoot,
    env: { PATH: harnessPath, ...env },
    output: { file: logFile },
  });
  return {
    exited: launched.exited,
    stop: () => signalProcess(launched, "SIGTERM"),
  };
}

/** Fails with how to get it when mariadb-backup is missing (scripts/test-faults.sh installs or unpacks it). */
export async function requireMariadbBackup(): Promise<void> {
  try {
    await run("mariadb-backup", ["--version"], { env: { PATH: harnessPath } });
  } catch {
    throw new Error(
      "mariadb-backup is missing: apt-get install --no-install-recommends mariadb-backup (Debian/Ubuntu), " +
        "or run the suite with scripts/test-faults.sh, which installs it as root or unpacks it into .tools/debian",
    );
  }
}

export interface BackupPosition {
  file: string;
  position: number;
  /** The GTID of the last transaction the backup holds: the replay starts after it. */
  gtid: string;
  /** The backup's size on disk: what copy-back copies. */
  bytes: number;
}

async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const sizes = await Promise.all(files.map((file) => stat(`${file.parentPath}/${file.name}`)));
  return sizes.reduce((sum, size) => sum + size.size, 0);
}

/** What a finished `scripts/db-backup.sh full` left: the position it is consistent with, its size. */
export async function backupPosition(target: string): Promise<BackupPosition> {
  const log = await readFile(`${target}.log`, "utf8");
  if (log.includes("missing required privilege"))
    throw new Error(`the backup account lacks a grant:\n${log}`);
  const [file = "", position = "0", gtid = ""] = (await readFile(`${target}/xtrabackup_binlog_info`, "utf8"))
    .trim()
    .split(/\s+/);
  return { file, position: Number(position), gtid, bytes: await bytesUnder(target) };
}

/** Every archived binary log's name, in order. */
export async function archivedNames(archive: string): Promise<string[]> {
  return (await readdir(archive)).filter((name) => /\.\d{6}$/.test(name)).sort();
}
