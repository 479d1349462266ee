import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { createInterface } from "node:readline";
import { type BinlogTransaction, DecodedRowsParser } from "./decoded-rows.ts";

/**
 * The binary logs archived by `scripts/db-backup.sh binlogs` (docs/runbook.md, "Restoring the ledger to
 * a point in time"), read with the MariaDB client's own `mariadb-binlog`, which must be on the PATH.
 */

/** Every archived binary log, in order: files named `<base>.NNNNNN`, whatever the server's log_bin base. */
export async function archiveFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => /\.\d{6}$/.test(name)).sort();
  return names.map((name) => `${dir}/${name}`);
}

/** `0-1-57,1-3-9` → domain → sequence number. */
export function gtidList(text: string): Map<number, bigint> {
  const list = new Map<number, bigint>();
  for (const entry of text.split(",").map((part) => part.trim())) {
    if (entry === "") continue;
    const found = /^(\d+)-(\d+)-(\d+)$/.exec(entry);
    if (!found) throw new Error(`not a GTID: ${entry}`);
    list.set(Number(found[1]), BigInt(found[3] ?? "0"));
  }
  return list;
}

/** Runs mariadb-binlog, handing each line of its output (latin1: one character a byte) to `onLine` until it returns true. */
async function eachLine(args: string[], onLine: (line: string) => boolean | undefined): Promise<void> {
  const child = spawn("mariadb-binlog", args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, error }));
    child.once("close", (code) => resolve({ code }));
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  child.stdout.setEncoding("latin1");
  let stopped = false;
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (onLine(line)) {
      stopped = true;
      child.kill("SIGTERM");
      break;
    }
  }
  const { code, error } = await exited;
  if (error)
    throw new Error(`mariadb-binlog could not run (${error.message}): install the mariadb-client package`);
  if (!stopped && code !== 0)
    throw new Error(`mariadb-binlog ${args.join(" ")} failed (${code}): ${stderr.trim()}`);
}

/** The GTID state a binary log starts from: its Gtid_list event, the second of every file. */
async function startsFrom(file: string): Promise<Map<number, bigint>> {
  let list: Map<number, bigint> | undefined;
  await eachLine([file], (line) => {
    const found = /\tGtid list \[([^\]]*)\]/.exec(line);
    if (found) list = gtidList(found[1] ?? "");
    return found !== null;
  });
  if (!list) throw new Error(`${file} has no Gtid list event: not a MariaDB binary log`);
  return list;
}

/**
 * The archive's files from the one the point is in: the newest whose starting state is at or before
 * the point in every domain (nothing before it comes after the point). Refused when even the oldest
 * starts past it: the archive no longer holds everything after the point.
 */
async function filesFrom(files: string[], point: Map<number, bigint>): Promise<string[]> {
  for (let at = files.length - 1; at >= 0; at--) {
    const start = await startsFrom(files[at] ?? "");
    const atOrBefore = [...start].every(([domain, seq]) => seq <= (point.get(domain) ?? -1n));
    if (atOrBefore) return files.slice(at);
  }
  throw new Error(
    "the archive's oldest binary log starts after the point: it does not hold all that came after it",
  );
}

export interface ArchiveRead {
  files: string[];
  /** Whether the archive ends inside a transaction (the archiver got part of it): its rows are not read. */
  incomplete: boolean;
}

/**
 * Every transaction the archive holds after `afterGtid` (exclusive, as `--start-position` takes a
 * GTID), committed, in log order, each handed to `onTransaction` as it is read.
 */
export async function readArchiveAfter(
  dir: string,
  afterGtid: string,
  onTransaction: (transaction: BinlogTransaction) => void,
): Promise<ArchiveRead> {
  const all = await archiveFiles(dir);
  if (all.length === 0) throw new Error(`no archived binary log in ${dir}`);
  const files = await filesFrom(all, gtidList(afterGtid));
  const parser = new DecodedRowsParser();
  await eachLine(
    ["--base64-output=decode-rows", "--verbose", `--start-position=${afterGtid}`, ...files],
    (line) => {
      const done = parser.line(line);
      if (done) onTransaction(done);
      return undefined;
    },
  );
  return { files, incomplete: parser.end().incomplete };
}
