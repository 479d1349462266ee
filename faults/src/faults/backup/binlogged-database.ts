import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readDocBlocks } from "@wallet/system-tests/docs/doc-blocks";
import { harnessPath } from "@wallet/system-tests/harness/env";
import mysql from "mysql2/promise";
import type { Database } from "../../harness/fault-system.ts";
import { MariaDbServer } from "../../servers/mariadb-server.ts";

/**
 * The runbook's `[mariadbd]` settings (docs/runbook.md, "Restoring the ledger to a point in time"), as
 * server options: what point-in-time recovery needs of a server, as production should run it (a
 * row-based binary log with GTIDs, synced at every commit as InnoDB's log is, so a transaction the
 * wallet answered for is in the binary log the archiver copies). Read from the runbook itself, so the
 * test runs the configuration it tells an operator to write. The first block is the primary's; the
 * second, the restored server's own id.
 */
function runbookServerSettings(): string[][] {
  const blocks = readDocBlocks("docs/runbook.md").filter(
    (block) => block.language === "ini" && block.text.startsWith("[mariadbd]\n"),
  );
  if (blocks.length !== 2) throw new Error(`docs/runbook.md: ${blocks.length} [mariadbd] blocks, expected 2`);
  return blocks.map((block) =>
    block.text
      .split("\n")
      .slice(1)
      .filter((line) => line.includes("="))
      .map((line) => `--${line.split("=")[0]?.trim()}=${line.split("=").slice(1).join("=").trim()}`),
  );
}

export const primaryArgs = () => runbookServerSettings()[0] ?? [];
const restoredArgs = () => [...primaryArgs(), ...(runbookServerSettings()[1] ?? [])];

/**
 * The wallet's primary with binary logs, and later the fresh server a backup is restored on (its own
 * folder, data directory and port, as another machine would be).
 */
export class BinloggedDatabase implements Database {
  restored: MariaDbServer | undefined;

  private constructor(
    readonly primary: MariaDbServer,
    private readonly dir: string,
  ) {}

  static async start(dir: string): Promise<BinloggedDatabase> {
    const primary = await MariaDbServer.start(`${dir}/primary`, { extraArgs: primaryArgs() });
    return new BinloggedDatabase(primary, dir);
  }

  /** Where the primary keeps its data and its binary logs (`--log-bin` names a file in it). */
  get primaryDataDir(): string {
    return `${this.dir}/primary/mariadb`;
  }

  /** The fresh server's data directory: empty until the backup is copied back into it. */
  get restoredDataDir(): string {
    return `${this.dir}/restored/mariadb`;
  }

  /**
   * Starts the fresh server on the copied-back files with the primary's settings (it is the next
   * primary) but a server id of its own: the replayed transactions keep their GTIDs (0-1-n), its own
   * are 0-2-n, never mistaken for the lost primary's transactions after the restore point.
   */
  async startRestored(): Promise<MariaDbServer> {
    this.restored = await MariaDbServer.start(`${this.dir}/restored`, {
      restored: true,
      extraArgs: restoredArgs(),
    });
    return this.restored;
  }

  async stop(): Promise<void> {
    await Promise.all([this.primary.stop(), this.restored?.stop()]);
  }
}

/** The GTID of the server's last logged transaction: a restore point, read from the primary. */
export async function gtidBinlogPos(server: MariaDbServer): Promise<string> {
  const root = await mysql.createConnection({ host: "127.0.0.1", port: server.port, user: "root" });
  try {
    const [rows] = (await root.query("SELECT @@gtid_binlog_pos AS gtid")) as unknown as [
      Array<{ gtid: string }>,
    ];
    return rows[0]?.gtid ?? "";
  } finally {
    await root.end();
  }
}

/** Closes the server's binary log and opens the next file (`mariadb-admin flush-binary-log`), as a rotation would. */
export async function rotateBinaryLog(server: MariaDbServer): Promise<void> {
  await promisify(execFile)(
    "mariadb-admin",
    ["--host=127.0.0.1", `--port=${server.port}`, "--user=root", "flush-binary-log"],
    { env: { PATH: harnessPath } },
  );
}
