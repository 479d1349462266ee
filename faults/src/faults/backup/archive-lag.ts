import { readdir, readFile, stat } from "node:fs/promises";
import { percentile } from "@wallet/telemetry/percentiles";
import mysql from "mysql2/promise";
import type { MariaDbServer } from "../../servers/mariadb-server.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const binlogName = /\.\d{6}$/;
/** The flags of a binary log's format description event: after the 4-byte magic and 17 header bytes. */
const inUseFlagOffset = 4 + 17;

interface BinlogPosition {
  file: string;
  position: number;
}

async function rootConnection(server: MariaDbServer) {
  return mysql.createConnection({ host: "127.0.0.1", port: server.port, user: "root" });
}

/** Whether the archive holds the primary's binary log up to `at`: that file that far, or a later file. */
async function archived(archive: string, at: BinlogPosition): Promise<boolean> {
  const names = (await readdir(archive)).filter((name) => binlogName.test(name));
  if (names.some((name) => name > at.file)) return true;
  const size = await stat(`${archive}/${at.file}`).then(
    (found) => found.size,
    () => 0,
  );
  return size >= at.position;
}

/**
 * The RPO of continuous archiving: a primary lost for good takes with it what the archiver had not yet
 * copied. Every `everyMs` this reads the primary's binary-log position (SHOW MASTER STATUS) and times
 * how long until the archive holds it; each sample is how old the newest unarchived commit could be at
 * that moment, had the primary died then.
 */
export class ArchiveLag {
  readonly samplesMs: number[] = [];
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly primary: MariaDbServer,
    private readonly archive: string,
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.loop = this.sample();
    // A failure is thrown by stop(); until then it must not count as an unhandled rejection.
    this.loop.catch(() => {});
  }

  async stop(): Promise<{ samples: number; p50Ms: number; p99Ms: number; maxMs: number }> {
    this.stopped = true;
    await this.loop;
    const sorted = Float64Array.from(this.samplesMs).sort();
    const at = (q: number) => (sorted.length === 0 ? 0 : Math.round(percentile(sorted, q) * 10) / 10);
    return { samples: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
  }

  private async sample(): Promise<void> {
    const connection = await rootConnection(this.primary);
    try {
      while (!this.stopped) {
        const started = performance.now();
        const [rows] = (await connection.query("SHOW MASTER STATUS")) as unknown as [
          Array<{ File: string; Position: number }>,
        ];
        const row = rows[0];
        if (!row) throw new Error("the primary has no binary log");
        const at = { file: row.File, position: Number(row.Position) };
        const deadline = started + 30_000;
        while (!(await archived(this.archive, at))) {
          if (performance.now() > deadline)
            throw new Error(`the archive is 30 s behind ${at.file}:${at.position}`);
          await pause(2);
        }
        this.samplesMs.push(performance.now() - started);
        await pause(this.everyMs);
      }
    } finally {
      await connection.end();
    }
  }
}

/**
 * Waits until the archive holds every binary log the primary has, whole, then proves each archived file
 * is byte for byte the primary's own (`dataDir`, where `--log-bin` writes them): nothing was lost or
 * altered on the way. Returns how many files and bytes the archive holds.
 */
export async function archiveMatchesPrimary(
  primary: MariaDbServer,
  dataDir: string,
  archive: string,
): Promise<{ files: number; bytes: number }> {
  const connection = await rootConnection(primary);
  let logs: Array<{ Log_name: string; File_size: number }>;
  try {
    [logs] = (await connection.query("SHOW BINARY LOGS")) as unknown as [typeof logs];
  } finally {
    await connection.end();
  }
  let bytes = 0;
  for (const log of logs) {
    const deadline = Date.now() + 30_000;
    while (!(await archived(archive, { file: log.Log_name, position: Number(log.File_size) }))) {
      if (Date.now() > deadline) throw new Error(`${log.Log_name} is not archived whole after 30 s`);
      await pause(20);
    }
    // The archive's copy first: the primary's last file may grow meanwhile, the copy is then its prefix.
    const mine = await readFile(`${archive}/${log.Log_name}`);
    const theirs = await readFile(`${dataDir}/${log.Log_name}`);
    // One bit may differ: the "in use" flag of the file's first event, set in the server's open file
    // (cleared when it is closed), never in the events it sends.
    for (const file of [mine, theirs])
      if (file.length > inUseFlagOffset)
        file.writeUInt8(file.readUInt8(inUseFlagOffset) & 0xfe, inUseFlagOffset);
    if (!theirs.subarray(0, mine.length).equals(mine) || mine.length < Number(log.File_size))
      throw new Error(`the archived ${log.Log_name} differs from the primary's`);
    bytes += mine.length;
  }
  return { files: logs.length, bytes };
}
