import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { fileURLToPath } from "node:url";
import { createDatabase } from "@wallet/ledger/db";
import { runDocBlockOk } from "@wallet/system-tests/docs/doc-blocks";
import { describe, expect, it, onTestFinished } from "vitest";
import { operatorToken } from "../harness/fault-system.ts";
import { checkInvariants } from "../harness/invariants.ts";
import {
  callbacksAnswered,
  launchPlayers,
  type SimSummary,
  seenAnswers,
  simSummary,
  startPlay,
  stopPlay,
  unservedAttempts,
} from "../harness/platform-load.ts";
import { timeToRecover } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { redisCommand } from "../servers/redis-command.ts";
import { ArchiveLag, archiveMatchesPrimary } from "./backup/archive-lag.ts";
import {
  adminHome,
  backupAccount,
  backupPosition,
  backupUrl,
  lastLine,
  requireMariadbBackup,
  rootUrl,
  startDocBlock,
} from "./backup/backup-tools.ts";
import { BinloggedDatabase, gtidBinlogPos } from "./backup/binlogged-database.ts";
import { type LostRoundLine, ndjson, recallOf, scoreLostRounds } from "./backup/lost-rounds.ts";
import { closeArrays, repairOneOfEach } from "./backup/repairs.ts";
import { lostByKind, restoredCallbacks } from "./backup/restored-callbacks.ts";

// The runbook's "Restoring the ledger to a point in time", run as written (each block by its id, in the
// runbook's order) against the wallet under load, the primary then killed: the drill an SRE runs.
const running = useFaultSystem({ database: (dir) => BinloggedDatabase.start(dir), workers: 2, players: 12 });
const database = () => running.system.database as BinloggedDatabase;
const resultsFile = fileURLToPath(new URL("../../results/backup-restore.json", import.meta.url));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (started: number) => Math.round(performance.now() - started);

function attemptsIn(stats: SimSummary["stats"]) {
  return { attempts: stats.callbacks, unserved: unservedAttempts(stats.byStatus) };
}

describe("backup and point-in-time restore, the runbook run as written", () => {
  it("a backup and a point taken under load, the primary lost, restored on a fresh server: every callback acknowledged before the point there once, every round that lost one after it named", async () => {
    await requireMariadbBackup();
    const { system, sim, players } = running;
    const db = database();
    const walletDatabase = new URL(system.ledger.adminUrl).pathname.slice(1);
    const env: Record<string, string> = {
      BACKUP_HOST: backupAccount.host,
      BACKUP_PASSWORD: backupAccount.password,
      BACKUP_DATABASE_URL: backupUrl(db.primary),
      ARCHIVE_DIR: `${system.dir}/binlogs`,
      BACKUP_ROOT: `${system.dir}/backups/full`,
      INCIDENT_DIR: `${system.dir}/incident`,
      DATADIR: db.restoredDataDir,
      MARIADB_USER: userInfo().username,
      WALLET_DATABASE: walletDatabase,
      REDIS_URL: system.redis.url(),
      REDIS_PREFIX: system.prefix,
    };
    await mkdir(env.INCIDENT_DIR as string);
    // The blocks an administrator runs on the primary read its `[client]` options from HOME.
    const asAdmin = { ...env, HOME: await adminHome(db.primary, `${system.dir}/admin`) };
    const block = (ref: string, extra: Record<string, string> = {}) =>
      runDocBlockOk(ref, { env: { ...env, ...extra }, timeoutMs: 120_000 });

    // Set up once: the backup account, the archiver (a service, until the primary is gone).
    await runDocBlockOk("docs/runbook.md#backup-account", { env: asAdmin });
    const archiver = startDocBlock("docs/runbook.md#archiver", env, `${env.ARCHIVE_DIR}.log`);
    const lag = new ArchiveLag(db.primary, env.ARCHIVE_DIR as string);
    onTestFinished(async () => {
      await archiver.stop();
      await lag.stop().catch(() => {});
    });

    // Under load: the day's full backup, then, once more callbacks were answered, the point.
    await startPlay(sim);
    await callbacksAnswered(sim, 60);
    lag.start();
    const beforeBackup = attemptsIn((await simSummary(sim)).stats);
    let started = performance.now();
    await runDocBlockOk("docs/runbook.md#full-backup", { env, timeoutMs: 120_000 });
    const backupMs = since(started);
    const afterBackup = attemptsIn((await simSummary(sim)).stats);
    const duringBackup = {
      attempts: afterBackup.attempts - beforeBackup.attempts,
      unserved: afterBackup.unserved - beforeBackup.unserved,
    };
    const days = (await readdir(env.BACKUP_ROOT as string)).filter((name) => !name.endsWith(".log"));
    expect(days).toHaveLength(1);
    const backupDir = `${env.BACKUP_ROOT}/${days[0]}`;
    const backup = await backupPosition(backupDir);
    const check = await runDocBlockOk("docs/runbook.md#archive-check", { env: asAdmin });
    expect(check.stdout).toContain(backup.file);
    await callbacksAnswered(sim, 60);
    const pointTime = new Date();
    // A player launched after the point (the point keeps the rest of POINT_TIME's second: after it),
    // whose user_id then only the archive knows.
    await pause(1_050 - (Date.now() % 1_000));
    const [late] = await launchPlayers(system, sim, 1);
    await pause(2_000);
    const summary = await stopPlay(sim);
    const rpo = await lag.stop();
    const answers = await seenAnswers(sim);
    // Acknowledged before the point: answered, so committed, before POINT_TIME (the answers are in
    // the order they arrived, so these are the list's first ones).
    const before = answers.filter((answer) => answer.answeredAt < pointTime.getTime());
    expect(answers.slice(0, before.length)).toEqual(before);
    // Everything the primary logged is in the archive, byte for byte; then the primary is lost.
    const archived = await archiveMatchesPrimary(db.primary, db.primaryDataDir, env.ARCHIVE_DIR as string);
    await db.primary.stop();
    await archiver.stop();

    // The restore, from the decision to the first callback answered 200 on the new server (RTO).
    const rtoStarted = performance.now();
    const steps: Record<string, number> = {};
    const step = async <T>(name: string, work: () => Promise<T>) => {
      const at = performance.now();
      const result = await work();
      steps[name] = since(at);
      return result;
    };
    // 1. Every app stopped (the test's own processes; the platform, idle, stays).
    await step("stopApps", async () => {
      for (const proc of system.processes.filter((app) => app.name !== "platform-sim"))
        await system.stop(proc);
      expect(lastLine((await block("docs/runbook.md#apps-stopped")).stdout)).toBe(
        "no app is connected to Redis",
      );
    });
    // 2. The point: the archive's last transaction at or before POINT_TIME.
    const pointGtid = await step("point", async () => {
      const found = (
        await block("docs/runbook.md#point", { POINT_TIME: pointTime.toISOString() })
      ).stdout.trim();
      await block("docs/runbook.md#archive-decode");
      // A transaction of a binary-log group commit prints its commit id too: `GTID 0-1-578 cid=1203 trans`.
      expect(await readFile(`${env.INCIDENT_DIR}/archive.txt`, "latin1")).toMatch(
        new RegExp(`\tGTID ${found.replaceAll(".", "\\.")} (cid=\\d+ )?trans`),
      );
      return found;
    });
    const at = { ...env, POINT_TIME: pointTime.toISOString(), POINT_GTID: pointGtid, BACKUP_DIR: backupDir };
    // 3. The backup before the point; 4. its files on the fresh server, started.
    expect((await block("docs/runbook.md#backups")).stdout).toBe(
      `${backupDir}/xtrabackup_binlog_info:${backup.file}\t${backup.position}\t${backup.gtid}\n`,
    );
    await step("files", () => block("docs/runbook.md#restore-files", at));
    const restored = await step("serverStart", () => db.startRestored());
    const onRestored = { ...at, RESTORE_DATABASE_URL: rootUrl(restored) };
    // 5. The replay to the point: the restored server logged the same GTIDs, up to it.
    await step("replay", () => block("docs/runbook.md#replay", onRestored));
    expect(await gtidBinlogPos(restored)).toBe(pointGtid);
    // 6. Verified; 7. Redis emptied; 8. the apps back, on the new server's address.
    const verified = await step("verify", () => block("docs/runbook.md#verify", onRestored));
    expect(verified.stdout).toMatch(/^ledger ok/);
    await step("emptyRedis", () => block("docs/runbook.md#empty-redis", onRestored));
    expect(await redisCommand(system.redis.port, "KEYS", `${system.prefix}:*`)).toEqual([]);
    await step("serve", async () => {
      system.moveDatabase(restored);
      await Promise.all([system.startWorker(), system.startWorker()]);
      await system.startGateway();
      steps.firstAnswer = await timeToRecover(system, players[0]);
    });
    const rtoMs = since(rtoStarted);

    // Finding them: from the old archive past the point, and from the restored ledger alone.
    const restoredLedger = createDatabase({ url: restored.url(walletDatabase), poolSize: 2 });
    onTestFinished(() => restoredLedger.close());
    const callbacks = await restoredCallbacks(restoredLedger.db, before, answers);
    expect(callbacks.problems).toEqual([]);
    expect(callbacks.before).toBeGreaterThan(0);
    expect(callbacks.missingAfter.length).toBeGreaterThan(0);
    started = performance.now();
    const archiveRun = await block("docs/runbook.md#at-risk-archive", onRestored);
    const findMs = since(started);
    const listed = ndjson<LostRoundLine>(await readFile(`${env.INCIDENT_DIR}/lost.ndjson`, "utf8"));
    expect(
      listed.every((round) => round.category === "lost" && round.reason === "archived_after_point"),
    ).toBe(true);
    const score = scoreLostRounds(listed, callbacks.missingAfter);
    const lateLines = callbacks.missingAfter.filter((answer) => answer.userId === late?.userId).length;
    expect(lateLines).toBeGreaterThan(0);
    expect(archiveRun.stderr).toContain("players created since and missing: 1;");
    await block("docs/runbook.md#at-risk-point", onRestored);
    const pointListing = ndjson<{ roundId: string; operatorId?: number; tenantId?: number }>(
      await readFile(`${env.INCIDENT_DIR}/at-risk.ndjson`, "utf8"),
    );
    const byPoint = recallOf(pointListing, callbacks.missingAfter);

    // The four invariants hold on the restored ledger for what it holds of the platform's answers.
    const invariants = await checkInvariants(system.ledger, players, [...before, ...callbacks.presentAfter]);
    expect(invariants.problems).toEqual([]);

    // Repairing, through the operator API: one lost money line, one lost close.
    const api = await system.startOperatorApi();
    const repairBlocks = {
      adjustment: "docs/runbook.md#repair-adjustment",
      transactions: "docs/runbook.md#player-transactions",
      close: "docs/runbook.md#repair-close",
    };
    const repaired = await repairOneOfEach(listed, closeArrays(answers), repairBlocks, (ref, extra) =>
      block(ref, {
        ...onRestored,
        OPERATOR_API: `http://127.0.0.1:${api.port}`,
        TOKEN: operatorToken,
        ...extra,
      }),
    );

    const result = {
      scenario: "backup-restore",
      backup: { ...backup, tookMs: backupMs, duringBackup, wholeRun: attemptsIn(summary.stats) },
      point: { time: pointTime.toISOString(), gtid: pointGtid },
      replayedTransactions: Number(pointGtid.split("-").at(-1)) - Number(backup.gtid.split("-").at(-1)),
      archive: archived,
      rpo: { archiverLagMs: rpo },
      rto: { totalMs: rtoMs, ...steps },
      acknowledged: {
        beforePoint: callbacks.before,
        afterPoint: callbacks.after,
        afterPointPresent: callbacks.presentAfter.length,
        afterPointMissing: callbacks.missingAfter.length,
      },
      missingByKind: lostByKind(callbacks.missingAfter),
      archiveListing: { ...score, findMs, summary: lastLine(archiveRun.stderr) },
      pointListing: byPoint,
      latePlayerLostLines: lateLines,
      repaired,
      invariants,
      sim: summary.stats,
    };
    await mkdir(fileURLToPath(new URL("../../results/", import.meta.url)), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `[faults] backup-restore: backup under load in ${backupMs} ms (${duringBackup.unserved} of ${duringBackup.attempts} attempts meanwhile answered 5xx); ` +
        `RTO ${rtoMs} ms ${JSON.stringify(steps)}; RPO = archiver lag p50 ${rpo.p50Ms} ms, p99 ${rpo.p99Ms} ms, max ${rpo.maxMs} ms over ${rpo.samples} samples; ` +
        `point ${pointGtid} (${result.replayedTransactions} transactions replayed); ${callbacks.before} acknowledged before it, all there once; ` +
        `after it ${callbacks.after}: ${callbacks.presentAfter.length} there, ${callbacks.missingAfter.length} missing ${JSON.stringify(result.missingByKind)}; ` +
        `archive listing in ${findMs} ms: rounds ${JSON.stringify(score.rounds)}, lines ${JSON.stringify(score.lines)}; ` +
        `--point listing: ${JSON.stringify(byPoint)}; repaired ${JSON.stringify(repaired)}`,
    );
    expect(score.wrong).toEqual([]);
    expect(score.rounds.unlisted).toEqual([]);
    expect(score.rounds.recall).toBe(1);
    expect(score.lines.recall).toBe(1);
    expect(summary.stats.gaveUp).toBe(0);
  }, 300_000);
});
