import { type ChildProcess, execFile, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { harnessPath } from "@wallet/system-tests/harness/env";
import mysql from "mysql2/promise";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";

const run = promisify(execFile);
const scripts = fileURLToPath(new URL("../../../../scripts/", import.meta.url));

/**
 * The operator's backup account, with exactly the grants docs/runbook.md gives it: the test's backup
 * and archiver run as it, so a missing grant fails here before it fails an operator.
 */
export const backupUser = { name: "backup", password: "faults-backup-3e9a" };
export const backupGrants = "RELOAD, PROCESS, LOCK TABLES, BINLOG MONITOR, REPLICATION SLAVE";

export async function createBackupUser(server: MariaDbServer): Promise<void> {
  const root = await mysql.createConnection({ host: "127.0.0.1", port: server.port, user: "root" });
  try {
    await root.query(`CREATE USER '${backupUser.name}'@'%' IDENTIFIED BY '${backupUser.password}'`);
    await root.query(`GRANT ${backupGrants} ON *.* TO '${backupUser.name}'@'%'`);
  } finally {
    await root.end();
  }
}

const backupUrl = (server: MariaDbServer) =>
  `mysql://${backupUser.name}:${backupUser.password}@127.0.0.1:${server.port}`;
const rootUrl = (server: MariaDbServer) => `mysql://root@127.0.0.1:${server.port}`;

/** One of the operator's scripts, as the runbook runs it; its output, or an error with its stderr. */
async function script(name: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run("bash", [`${scripts}${name}`, ...args], {
      env: { PATH: harnessPath, HOME: process.env.HOME ?? "/tmp", ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${name} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
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

/** `scripts/db-backup.sh full`: a full backup of the running server, and the position it is consistent with. */
export async function fullBackup(server: MariaDbServer, target: string): Promise<BackupPosition> {
  await script("db-backup.sh", ["full", target], { BACKUP_DATABASE_URL: backupUrl(server) });
  const log = await readFile(`${target}.log`, "utf8");
  if (log.includes("missing required privilege"))
    throw new Error(`the backup account lacks a grant:\n${log}`);
  const [file = "", position = "0", gtid = ""] = (await readFile(`${target}/xtrabackup_binlog_info`, "utf8"))
    .trim()
    .split(/\s+/);
  return { file, position: Number(position), gtid, bytes: await bytesUnder(target) };
}

/** `scripts/db-backup.sh binlogs`: archives the server's binary logs as it writes them, until `stop`. */
export function startArchiver(server: MariaDbServer, archive: string): { stop: () => Promise<void> } {
  // What it says (and mariadb-binlog's complaints when a connection ends) goes to <archive>.log.
  const log = openSync(`${archive}.log`, "a");
  const child: ChildProcess = spawn("bash", [`${scripts}db-backup.sh`, "binlogs", archive], {
    env: { PATH: harnessPath, BACKUP_DATABASE_URL: backupUrl(server) },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  // Its loop reconnects for ever: it must not outlive the test process.
  const killOnExit = () => child.kill("SIGTERM");
  process.once("exit", killOnExit);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    stop: async () => {
      process.off("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `scripts/db-restore.sh files`: prepares the backup and copies it into the new server's data directory. */
export async function restoreFiles(backup: string, dataDir: string): Promise<void> {
  await script("db-restore.sh", ["files", backup, dataDir]);
}

/** `scripts/db-restore.sh replay`: the archived binary logs after the backup, up to `untilGtid` included. */
export async function replayUntil(
  backup: string,
  archive: string,
  server: MariaDbServer,
  untilGtid: string,
): Promise<void> {
  await script("db-restore.sh", ["replay", backup, archive, "--until-gtid", untilGtid], {
    RESTORE_DATABASE_URL: rootUrl(server),
  });
}

/** `pnpm ledger:verify` against a database, as the runbook runs it after a restore; its one-line verdict. */
export async function ledgerVerifyCli(databaseUrl: string): Promise<{ ok: boolean; output: string }> {
  const ledgerDir = fileURLToPath(new URL("../../../../packages/ledger/", import.meta.url));
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "src/cli/verify.cli.ts"], {
      cwd: ledgerDir,
      env: { PATH: harnessPath, DATABASE_URL: databaseUrl },
    });
    return { ok: true, output: stdout.trim() };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${stdout ?? ""}${stderr ?? ""}`.trim() };
  }
}
