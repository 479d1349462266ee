import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { lastLine, runScript } from "./backup-tools.ts";

// The backup scripts are MariaDB's (mariadb-backup, mariadb-binlog, MariaDB GTIDs). Pointed at MySQL
// or TiDB they stop with exit 2 before doing anything and say what to use there. Neither server runs
// here: a listener answers each connection with the handshake a MySQL 8.4 or a TiDB server opens with
// (its protocol version and version string, what the scripts read) and nothing more. The local
// MariaDB is the server that is not refused.
let dir: string;
const listeners: Server[] = [];

/** A listener that greets like a server announcing `version`; its mysql:// URL. */
async function announcing(version: string): Promise<string> {
  const server = createServer((socket) => {
    const body = Buffer.concat([
      Buffer.from([10]),
      Buffer.from(`${version}\0`, "latin1"),
      Buffer.alloc(4 + 8 + 1),
    ]);
    const header = Buffer.from([body.length & 0xff, (body.length >> 8) & 0xff, body.length >> 16, 0]);
    socket.end(Buffer.concat([header, body]));
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return `mysql://backup:secret@127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wallet-backup-other-servers-`);
});
afterAll(async () => {
  for (const server of listeners) server.close();
  await rm(dir, { recursive: true, force: true });
});

const mysqlRefusal = (script: string) =>
  `xx  127.0.0.1 is MySQL (8.4.3), not MariaDB: ${script} is for MariaDB (mariadb-backup, mariadb-binlog, MariaDB GTIDs); on MySQL 8.4 use Percona XtraBackup and mysqlbinlog, on RDS, Aurora or Cloud SQL the provider's point-in-time restore (docs/runbook.md, "On MySQL 8.4" and "On RDS, Aurora and Cloud SQL"); nothing was done`;

describe("the MariaDB backup scripts pointed at another server", () => {
  it("db-backup.sh refuses MySQL 8.4 and TiDB, exit 2, and writes nothing", async () => {
    const mysql = await announcing("8.4.3");
    for (const command of ["full", "binlogs"]) {
      const target = `${dir}/${command}-mysql/2026-11-28`;
      const ran = await runScript("db-backup.sh", [command, target], { BACKUP_DATABASE_URL: mysql });
      expect({ code: ran.code, last: lastLine(ran.stderr) }).toEqual({
        code: 2,
        last: mysqlRefusal("db-backup.sh"),
      });
    }
    const tidb = await announcing("8.0.11-TiDB-v7.5.1");
    const ran = await runScript("db-backup.sh", ["binlogs", `${dir}/binlogs-tidb`], {
      BACKUP_DATABASE_URL: tidb,
    });
    expect({ code: ran.code, last: lastLine(ran.stderr) }).toEqual({
      code: 2,
      last: `xx  127.0.0.1 is TiDB (8.0.11-TiDB-v7.5.1), not MariaDB: db-backup.sh is for MariaDB (mariadb-backup, mariadb-binlog, MariaDB GTIDs); back up TiDB with BR (docs/runbook.md, "On TiDB"); nothing was done`,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("db-restore.sh refuses a backup Percona XtraBackup made on MySQL, and a replay into MySQL", async () => {
    const backup = `${dir}/xtrabackup`;
    const archive = `${dir}/archive`;
    await mkdir(backup);
    await mkdir(archive);
    await writeFile(`${archive}/binlog.000003`, "");
    await writeFile(
      `${backup}/xtrabackup_binlog_info`,
      "binlog.000003\t197\t3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42\n",
    );
    const files = await runScript("db-restore.sh", ["files", backup, `${dir}/datadir`]);
    expect({ code: files.code, last: lastLine(files.stderr) }).toEqual({
      code: 2,
      last: `xx  ${backup} was made on MySQL (its GTID is 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42): db-restore.sh restores MariaDB; on MySQL 8.4 use xtrabackup --prepare/--copy-back and mysqlbinlog (docs/runbook.md, "On MySQL 8.4"); nothing was done`,
    });
    expect((await readdir(dir)).sort()).toEqual(["archive", "xtrabackup"]);

    // A MariaDB backup replayed into a MySQL server: refused before anything is sent.
    await writeFile(`${backup}/xtrabackup_binlog_info`, "binlog.000003\t197\t0-1-42\n");
    const replay = await runScript("db-restore.sh", ["replay", backup, archive], {
      RESTORE_DATABASE_URL: await announcing("8.4.3"),
    });
    expect({ code: replay.code, last: lastLine(replay.stderr) }).toEqual({
      code: 2,
      last: mysqlRefusal("db-restore.sh"),
    });
  });

  it("a MariaDB server is not refused: the replay goes on to its own checks", async () => {
    const backup = `${dir}/mariadb-backup`;
    const archive = `${dir}/mariadb-archive`;
    await mkdir(backup);
    await mkdir(archive);
    await writeFile(`${archive}/mariadb-bin.000001`, "");
    await writeFile(`${backup}/xtrabackup_binlog_info`, "mariadb-bin.000001\t4\t0-1-1\n");
    const server = new URL(inject("mysqlServerUrl"));
    server.pathname = "";
    const replay = await runScript("db-restore.sh", ["replay", backup, archive], {
      RESTORE_DATABASE_URL: server.toString().replace(/\/$/, ""),
      HOME: dir,
    });
    // Past the server check: the next one, or the replay of an empty file, is what stops it.
    expect(replay.code).toBe(1);
    expect(replay.stderr).not.toContain("not MariaDB");
    expect(lastLine(replay.stderr)).toMatch(
      /^xx {2}(the server does not log binary logs|the replay stopped)/,
    );
  });
});
