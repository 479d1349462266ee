import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { createDatabase } from "@wallet/ledger/db";
import { archivedAfterPoint } from "@wallet/ledger/reads/archived-after-point";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { sendWithdraw } from "@wallet/ledger/testing/send-callbacks";
import { openTestLedger, type TestLedger } from "@wallet/ledger/testing/test-ledger";
import { runDocBlockOk } from "@wallet/system-tests/docs/doc-blocks";
import { harnessPath } from "@wallet/system-tests/harness/env";
import { freePort } from "@wallet/system-tests/harness/processes/readiness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminHome,
  archivedNames,
  backupAccount,
  backupPosition,
  backupUrl,
  lastLine,
  requireMariadbBackup,
  rootUrl,
  runScript,
} from "./backup/backup-tools.ts";
import { BinloggedDatabase, gtidBinlogPos, rotateBinaryLog } from "./backup/binlogged-database.ts";

// The operator's scripts (scripts/db-backup.sh, scripts/db-restore.sh) run for real against MariaDB
// servers of their own, each failure an SRE met checked by its exact message and exit code. The whole
// procedure under load is backup-restore.faults.test.ts.
let dir: string;
let database: BinloggedDatabase;
let ledger: TestLedger;
const since = (started: number) => performance.now() - started;
const run = promisify(execFile);

/** The runbook's backup account on `server`, made by its own block as an administrator. */
async function makeBackupAccount(server: BinloggedDatabase["primary"], home: string) {
  await runDocBlockOk("docs/runbook.md#backup-account", {
    env: {
      HOME: await adminHome(server, home),
      BACKUP_HOST: backupAccount.host,
      BACKUP_PASSWORD: backupAccount.password,
    },
  });
}

/** A few of the wallet's own writes (a player, a bet in round-1), each a transaction in the binary log. */
async function someWrites() {
  const player = await playerWithSession(ledger, { balance: 10_000n });
  const bet = betBody(player, { amount: 100 });
  await sendWithdraw(ledger, bet);
  return { userId: player.userId, providerTxId: String(bet.provider_tx_id) };
}

beforeAll(async () => {
  await requireMariadbBackup();
  dir = await mkdtemp(`${tmpdir()}/wallet-backup-scripts-`);
  database = await BinloggedDatabase.start(dir);
  await makeBackupAccount(database.primary, `${dir}/admin`);
  ledger = await openTestLedger(database.primary.url(""));
  await someWrites();
}, 120_000);

afterAll(async () => {
  await ledger?.drop().catch(() => {});
  await database?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("db-backup.sh full", () => {
  it("backs up into a day's folder under a root that does not exist yet, as the URL's user whatever ~/.my.cnf says", async () => {
    const target = `${dir}/backups/full/2026-11-28`;
    // Run by someone whose own [client] options log in as root, as on a database host.
    const ran = await runScript("db-backup.sh", ["full", target], {
      BACKUP_DATABASE_URL: backupUrl(database.primary),
      HOME: `${dir}/admin`,
    });
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    const backup = await backupPosition(target);
    expect(backup.gtid).toBe(await gtidBinlogPos(database.primary));
    expect(lastLine(ran.stdout)).toBe(
      `==> backup consistent with binary log position: ${backup.file}\t${backup.position}\t${backup.gtid}`,
    );
    expect(await readFile(`${target}.log`, "utf8")).toContain("user: backup,");
  });

  it("a backup that fails says why: the last lines of mariadb-backup's log", async () => {
    const wrong = backupUrl(database.primary).replace(backupAccount.password, "not-the-password");
    const ran = await runScript("db-backup.sh", ["full", `${dir}/backups/refused/day`], {
      BACKUP_DATABASE_URL: wrong,
    });
    expect(ran.code).toBe(1);
    expect(lastLine(ran.stderr)).toMatch(
      /^xx {2}mariadb-backup failed \(exit 1\): .*Failed to connect to MariaDB server: Access denied for user 'backup'@'[^']+' \(using password: YES\)\.$/,
    );
  });

  it("without mariadb-backup on the machine, says which package to install, and installs nothing", async () => {
    // Only what the script needs before it looks for mariadb-backup: no apt-get, no mariadb-backup.
    const bin = `${dir}/bare-bin`;
    await mkdir(bin);
    for (const program of ["bash", "node", "dirname", "mktemp", "chmod", "rm"])
      await symlink(
        (await run("which", [program], { env: { PATH: harnessPath } })).stdout.trim(),
        `${bin}/${program}`,
      );
    const ran = await runScript("db-backup.sh", ["full", `${dir}/backups/bare/day`], {
      PATH: bin,
      BACKUP_DATABASE_URL: backupUrl(database.primary),
    });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toBe(
      "xx  mariadb-backup is missing: install the mariadb-backup package first (apt-get install --no-install-recommends mariadb-backup)\n",
    );
  });
});

describe("db-backup.sh binlogs", () => {
  it("gives up on a server it cannot reach after BINLOG_ARCHIVER_GIVE_UP_SECONDS, exit 1, its last line saying so", async () => {
    const nobody = `mysql://backup:x@127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const ran = await runScript("db-backup.sh", ["binlogs", `${dir}/nowhere`], {
      BACKUP_DATABASE_URL: nobody,
      BINLOG_ARCHIVER_GIVE_UP_SECONDS: "2",
    });
    expect(since(started)).toBeLessThan(10_000);
    expect(ran.code).toBe(1);
    expect(lastLine(ran.stderr)).toMatch(
      /^xx {2}binlog archiver: the server was unreachable for [23] s \(BINLOG_ARCHIVER_GIVE_UP_SECONDS=2\), giving up: ERROR 2002 \(HY000\): Can't connect to server on '127\.0\.0\.1' \(\d+\)$/,
    );
  });

  it("archives while the server lives, and exits 1 once it has been gone that long", async () => {
    const lost = await BinloggedDatabase.start(`${dir}/lost`);
    await makeBackupAccount(lost.primary, `${dir}/lost-admin`);
    const archive = `${dir}/lost-archive`;
    const archiving = runScript("db-backup.sh", ["binlogs", archive], {
      BACKUP_DATABASE_URL: backupUrl(lost.primary),
      BINLOG_ARCHIVER_GIVE_UP_SECONDS: "2",
    });
    const deadline = Date.now() + 30_000;
    while ((await archivedNames(archive).catch(() => [])).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await lost.stop();
    const ran = await archiving;
    expect(await archivedNames(archive)).toEqual(["mariadb-bin.000001"]);
    expect(ran.stdout).toContain("the archiver's connection ended");
    expect(ran.code).toBe(1);
    expect(lastLine(ran.stderr)).toMatch(
      /^xx {2}binlog archiver: the server was unreachable for [23] s \(BINLOG_ARCHIVER_GIVE_UP_SECONDS=2\), giving up: ERROR 2002 \(HY000\): Can't connect to server on '127\.0\.0\.1' \(\d+\)$/,
    );
  });
});

describe("db-restore.sh", () => {
  let backup: string;
  let archive: string;
  let point: string;
  const afterPoint: Array<{ userId: string; providerTxId: string }> = [];

  beforeAll(async () => {
    backup = `${dir}/backups/full/restore-from`;
    expect(
      (
        await runScript("db-backup.sh", ["full", backup], {
          BACKUP_DATABASE_URL: backupUrl(database.primary),
        })
      ).code,
    ).toBe(0);
    // The point in the second of three binary logs, a player and a bet after it in each of the others.
    await someWrites();
    await rotateBinaryLog(database.primary);
    await someWrites();
    point = await gtidBinlogPos(database.primary);
    afterPoint.push(await someWrites());
    await rotateBinaryLog(database.primary);
    afterPoint.push(await someWrites());
    // The archive: the primary's own binary logs, as the archiver copies them.
    archive = `${dir}/archive`;
    for (const name of await archivedNames(database.primaryDataDir))
      await cp(`${database.primaryDataDir}/${name}`, `${archive}/${name}`);
  }, 120_000);

  it("point: the GTID of the archive's last transaction, or of the last logged at or before a time", async () => {
    const last = await runScript("db-restore.sh", ["point", archive]);
    expect(last.stdout).toBe(`${await gtidBinlogPos(database.primary)}\n`);
    const now = await runScript("db-restore.sh", ["point", archive, new Date().toISOString()]);
    expect(now.stdout).toBe(last.stdout);
    const before = await runScript("db-restore.sh", ["point", archive, "2001-01-01T00:00:00Z"]);
    expect(before.code).toBe(1);
    expect(lastLine(before.stderr)).toBe(
      "xx  the archive holds no whole transaction logged at or before 2001-01-01T00:00:00Z",
    );
  });

  it("replay: to the point, a second replay into the same server refused with nothing applied, and what it removed named from the archive", async () => {
    const files = await runScript("db-restore.sh", ["files", backup, database.restoredDataDir]);
    expect(files.code).toBe(0);
    const restored = await database.startRestored();
    const env = { RESTORE_DATABASE_URL: rootUrl(restored) };
    const replay = ["replay", backup, archive, "--until-gtid", point];
    const first = await runScript("db-restore.sh", replay, env);
    expect(first.stderr).toBe("");
    expect(lastLine(first.stdout)).toBe(
      `==> replayed: the server is at @@gtid_binlog_pos ${point}; now: pnpm ledger:verify against it, then the runbook's reconciliation`,
    );
    const restoredLedger = createDatabase({
      url: restored.url(new URL(ledger.adminUrl).pathname.slice(1)),
      poolSize: 1,
    });
    try {
      const lines = await countRows(restoredLedger, "journal_entries");
      const again = await runScript("db-restore.sh", replay, env);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(
        `xx  the server is already at GTID ${point}, at or past ${point}: it was replayed into before; nothing applied\n`,
      );
      const { gtid } = await backupPosition(backup);
      const toTheEnd = await runScript("db-restore.sh", ["replay", backup, archive], env);
      expect(toTheEnd.code).toBe(1);
      expect(toTheEnd.stderr).toBe(
        `xx  the server already holds transactions after the backup's ${gtid} (@@gtid_binlog_pos ${point}): ` +
          "replaying again would apply them twice; nothing applied (copy the backup onto an empty data directory to start over)\n",
      );
      expect(await gtidBinlogPos(restored)).toBe(point);
      expect(await countRows(restoredLedger, "journal_entries")).toBe(lines);

      // What the restore removed, from the archive past the point: read from the file the point is in.
      const found = await archivedAfterPoint(restoredLedger.db, { afterGtid: point, archive });
      expect(found.files.map((file) => file.split("/").at(-1))).toEqual([
        "mariadb-bin.000002",
        "mariadb-bin.000003",
      ]);
      expect(
        found.rounds.map(({ createdAt, ...round }) => ({ ...round, created: createdAt !== null })),
      ).toEqual([
        {
          category: "lost",
          reason: "archived_after_point",
          operatorId: 1,
          roundId: "round-1",
          userIds: afterPoint.map((write) => write.userId).sort(),
          closedAt: null,
          created: true,
          lines: afterPoint.map((write) => ({
            providerTxId: write.providerTxId,
            kind: "BET",
            amount: -100n,
            userId: write.userId,
          })),
        },
      ]);
      // Their opening balances, outside any round; the two players, missing.
      expect(found.outsideRounds.map((line) => [line.kind, line.amount, line.userId])).toEqual(
        afterPoint.map((write) => ["OPENING", 10_000n, write.userId]),
      );
      expect(found.playersLost).toBe(2);
    } finally {
      await restoredLedger.close();
    }
  });
});
