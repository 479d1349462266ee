import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createDatabase } from "@wallet/ledger/db";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkInvariants } from "../harness/invariants.ts";
import {
  callbacksAnswered,
  type SimSummary,
  seenAnswers,
  simSummary,
  startPlay,
  stopPlay,
  unservedAttempts,
} from "../harness/platform-load.ts";
import { timeToRecover } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { ArchiveLag, archiveMatchesPrimary } from "./backup/archive-lag.ts";
import {
  fullBackup,
  ledgerVerifyCli,
  replayUntil,
  requireMariadbBackup,
  restoreFiles,
  startArchiver,
} from "./backup/backup-tools.ts";
import { BinloggedDatabase, gtidBinlogPos } from "./backup/binlogged-database.ts";
import { lostByKind, restoredCallbacks, roundsOfLost } from "./backup/restored-callbacks.ts";

// The wallet on a primary with binary logs, archived continuously by the operator's own script.
const running = useFaultSystem({ database: (dir) => BinloggedDatabase.start(dir), workers: 2, players: 12 });
const database = () => running.system.database as BinloggedDatabase;
const resultsFile = fileURLToPath(new URL("../../results/backup-restore.json", import.meta.url));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (started: number) => Math.round(performance.now() - started);

/** The platform's attempts so far, and how many of them were answered 503 or not at all. */
async function attemptsSoFar(sim: Parameters<typeof simSummary>[0]) {
  return attemptsIn((await simSummary(sim)).stats);
}

function attemptsIn(stats: SimSummary["stats"]) {
  return { attempts: stats.callbacks, unserved: unservedAttempts(stats.byStatus) };
}

describe("backup and point-in-time restore", () => {
  it("a backup taken under load, restored to a chosen moment on a fresh server: ledger verified, every callback acknowledged before the moment there once", async () => {
    await requireMariadbBackup();
    const { system, sim, players } = running;
    const db = database();
    const [backupDir, archive] = [`${system.dir}/backup`, `${system.dir}/binlogs`];
    await mkdir(archive);
    const archiver = startArchiver(db.primary, archive);
    const lag = new ArchiveLag(db.primary, archive);
    // Stopped below; these are for a test that fails first (both stops may run twice).
    onTestFinished(async () => {
      await archiver.stop();
      await lag.stop().catch(() => {});
    });

    // Under load: the full backup, then, once more callbacks were answered, the restore point.
    await startPlay(sim);
    await callbacksAnswered(sim, 60);
    lag.start();
    // What the backup costs the callbacks: attempts answered 5xx while it ran, against the rest of the run.
    const beforeBackup = await attemptsSoFar(sim);
    let started = performance.now();
    const backup = await fullBackup(db.primary, backupDir);
    const backupMs = since(started);
    const afterBackup = await attemptsSoFar(sim);
    const duringBackup = {
      attempts: afterBackup.attempts - beforeBackup.attempts,
      unserved: afterBackup.unserved - beforeBackup.unserved,
    };
    await callbacksAnswered(sim, 60);
    // Every answer the platform holds now came after its commit, and so precedes the point read next.
    const before = await seenAnswers(sim);
    const point = await gtidBinlogPos(db.primary);
    const pointAt = new Date();
    await pause(3_000);
    const summary = await stopPlay(sim);
    const rpo = await lag.stop();
    const wholeRun = attemptsIn(summary.stats);
    const restOfRun = {
      attempts: wholeRun.attempts - duringBackup.attempts,
      unserved: wholeRun.unserved - duringBackup.unserved,
    };
    const answers = await seenAnswers(sim);
    // Everything the primary logged is in the archive, byte for byte; then the primary is lost.
    const archived = await archiveMatchesPrimary(db.primary, db.primaryDataDir, archive);
    await archiver.stop();
    await db.primary.stop();

    // RTO: from the backup and the archive to a verified ledger on a fresh server.
    const rtoStarted = performance.now();
    started = performance.now();
    await restoreFiles(backupDir, db.restoredDataDir);
    const filesMs = since(started);
    started = performance.now();
    const restored = await db.startRestored();
    const startMs = since(started);
    started = performance.now();
    await replayUntil(backupDir, archive, restored, point);
    const replayMs = since(started);
    // The replay stopped exactly at the point: the restored server logged the same GTIDs, up to it.
    expect(await gtidBinlogPos(restored)).toBe(point);
    started = performance.now();
    const restoredUrl = restored.url(new URL(system.ledger.adminUrl).pathname.slice(1));
    const verified = await ledgerVerifyCli(restoredUrl);
    const verifyMs = since(started);
    const rtoMs = since(rtoStarted);
    expect(verified.output).toMatch(/^ledger ok/);

    const restoredLedger = createDatabase({ url: restoredUrl, poolSize: 2 });
    const callbacks = await restoredCallbacks(restoredLedger.db, before, answers);
    const rounds = await roundsOfLost(restoredLedger, callbacks.missingAfter, pointAt);
    await restoredLedger.close();
    expect(callbacks.problems).toEqual([]);
    expect(callbacks.before).toBeGreaterThan(0);
    // And not past it: 3 s of callbacks acknowledged after it are gone, each round of them found.
    expect(callbacks.missingAfter.length).toBeGreaterThan(0);
    expect(rounds.unlisted).toEqual([]);

    // Back in service on the restored server: the wallet's address moved, Redis emptied (its jobs and
    // outbox claims belong to the lost timeline); the sweep republishes what the restored outbox owes.
    started = performance.now();
    system.moveDatabase(restored);
    await system.redis.signal("SIGKILL");
    await system.redis.restart();
    await timeToRecover(system, players[0]);
    const serviceMs = since(started);
    // The four invariants hold on the restored ledger for what it holds of the platform's answers.
    const held = [...before, ...callbacks.presentAfter];
    const invariants = await checkInvariants(system.ledger, players, held);
    expect(invariants.problems).toEqual([]);

    const result = {
      scenario: "backup-restore",
      backup: { ...backup, tookMs: backupMs, duringBackup, restOfRun },
      restorePoint: point,
      // One GTID domain, one server: the point's sequence number less the backup's.
      replayedTransactions: Number(point.split("-").at(-1)) - Number(backup.gtid.split("-").at(-1)),
      archive: archived,
      rpo: { archiverLagMs: rpo },
      rto: { totalMs: rtoMs, prepareAndCopyBackMs: filesMs, serverStartMs: startMs, replayMs, verifyMs },
      backInServiceMs: serviceMs,
      acknowledged: {
        beforePoint: callbacks.before,
        afterPoint: callbacks.after,
        afterPointPresent: callbacks.presentAfter.length,
        afterPointMissing: callbacks.missingAfter.length,
      },
      missingByKind: lostByKind(callbacks.missingAfter),
      roundsLosingALine: { ...rounds, unlisted: rounds.unlisted.length },
      verify: verified.output,
      invariants,
      sim: summary.stats,
    };
    await mkdir(fileURLToPath(new URL("../../results/", import.meta.url)), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `[faults] backup-restore: backup under load in ${backupMs} ms (${duringBackup.unserved} of ${duringBackup.attempts} ` +
        `attempts meanwhile answered 5xx, ${restOfRun.unserved} of ${restOfRun.attempts} in the rest of the run); RTO ${rtoMs} ms (prepare + copy-back ${filesMs}, ` +
        `start ${startMs}, replay of ${result.replayedTransactions} transactions ${replayMs}, verify ${verifyMs}); back in service ${serviceMs} ms later; ` +
        `RPO = archiver lag p50 ${rpo.p50Ms} ms, p99 ${rpo.p99Ms} ms, max ${rpo.maxMs} ms over ${rpo.samples} samples; ` +
        `${callbacks.before} acknowledged before the point, all there once; after it ${callbacks.after}: ` +
        `${callbacks.presentAfter.length} there, ${callbacks.missingAfter.length} missing ` +
        `${JSON.stringify(result.missingByKind)} in ${rounds.losing} rounds: ${rounds.losing - rounds.traceless} listed at risk, ` +
        `${rounds.traceless} with no trace; ${archived.files} binlog file(s), ${archived.bytes} bytes archived`,
    );
    expect(summary.stats.gaveUp).toBe(0);
  });
});
