import { countRows } from "@wallet/ledger/testing/ledger-reads";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { beforeAll, describe, expect, it } from "vitest";
import { seenAnswers, simSummary, unservedAttempts } from "../harness/platform-load.ts";
import { underLoad } from "../harness/scenario.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { logged } from "../security/log-scan.ts";
import { asRoot } from "../servers/mariadb-server.ts";
import { ReplicatedMariaDb } from "../servers/replicated-mariadb.ts";
import { runFailoverDrill } from "./failover/drill.ts";
import { recoveryFigures, scoreDrill } from "./failover/drill-score.ts";
import { killAndFailOver } from "./failover/fail-over.ts";
import { lostAnswers } from "./failover/lost-answers.ts";
import { resendAcknowledged } from "./failover/resend.ts";

// The wallet on a primary with a lossless semi-synchronous replica (AFTER_SYNC): the primary answers a
// commit only once the replica holds it, so whatever the platform was told survives the primary.
const running = useFaultSystem({
  database: (dir) => ReplicatedMariaDb.start(dir, { semiSync: true }),
  workers: 2,
  players: 12,
});
let operatorApi: AppProcess;
beforeAll(async () => {
  operatorApi = await running.system.startOperatorApi();
}, 60_000);
const replicated = () => running.system.database as ReplicatedMariaDb;
/** docs/runbook.md, "After a database failover": the blocks this test runs as written. */
const drillBlocks = {
  roundsAtRisk: "docs/runbook.md#failover-rounds-at-risk",
  lostReports: "docs/runbook.md#failover-lost-reports",
  list: "docs/runbook.md#failover-list",
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("failover to a semi-synchronous replica under load", () => {
  it("loses nothing the platform was told: every 200 in the new primary once, a resend answered byte for byte", async () => {
    const { system, sim, players } = running;
    // Commits of the setup (users, before the replica attached) went unacknowledged: counted from here.
    const atStart = await replicated().primaryStatus();
    let semiSync: Record<string, string> = {};
    let promotedAfterMs = 0;
    let killedAt = 0;
    let failoverAt = new Date();
    let killedAtMs = 0;
    const result = await underLoad(
      system,
      sim,
      players,
      "failover-semisync",
      async () => {
        semiSync = await replicated().primaryStatus();
        // What the failover tool logs as the failover's time, as the runbook's drill reads it.
        failoverAt = new Date();
        killedAtMs = Date.now();
        ({ killedAt, promotedAfterMs } = await killAndFailOver(system, replicated()));
      },
      { warmupCallbacks: 300 },
    );
    const withoutServiceMs = Math.round(promotedAfterMs + result.recoveryMs);
    // Semi-sync held throughout: every commit was acknowledged by the replica, none went unacknowledged.
    expect(semiSync.Rpl_semi_sync_master_status).toBe("ON");
    const acknowledgedCommits =
      Number(semiSync.Rpl_semi_sync_master_yes_tx) - Number(atStart.Rpl_semi_sync_master_yes_tx);
    const unacknowledgedCommits =
      Number(semiSync.Rpl_semi_sync_master_no_tx) - Number(atStart.Rpl_semi_sync_master_no_tx);
    expect(acknowledgedCommits).toBeGreaterThan(0);
    expect(unacknowledgedCommits).toBe(0);
    expect(killedAt).toBeGreaterThan(0);

    expect(result.problems).toEqual([]);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.sim.gaveUp).toBe(0);
    const answers = await seenAnswers(sim);
    // Within the contract's budget: the platform resends a 5xx at most 5 times, over up to 2 minutes.
    const mostAttempts = Math.max(...answers.map((answer) => answer.attempts));
    expect(mostAttempts).toBeLessThanOrEqual(6);
    expect(withoutServiceMs).toBeLessThan(120_000);

    // The runbook's drill, run as written after this lossless failover: nothing listed as lost, no
    // round lost whole; the rounds in play at the point are only to check.
    const lost = await lostAnswers(system.ledger, answers);
    const drill = await runFailoverDrill(system, operatorApi, failoverAt, "failover-semisync", drillBlocks);
    const lines = [...drill.atRisk, ...drill.lostWhole];
    const score = await scoreDrill(lost, lines, async () => true);
    const recovery = recoveryFigures(answers, lost, killedAtMs, killedAtMs + promotedAfterMs);
    console.log(
      `[faults] failover-semisync drill: ${JSON.stringify({ point: drill.point, ...recovery, ...score, lines: lines.length })}`,
    );
    expect(lost).toEqual([]);
    expect(lines.filter((line) => line.category === "lost")).toEqual([]);
    expect(drill.lostWhole).toEqual([]);
    expect(drill.atRisk.every((line) => line.userIds !== null && line.userIds.length > 0)).toBe(true);

    const { resent, differing } = await resendAcknowledged(system, answers);
    expect(differing).toEqual([]);
    console.log(
      `[faults] failover-semisync: ${withoutServiceMs} ms without service (promotion ${promotedAfterMs} ms); ` +
        `${unservedAttempts(result.sim.byStatus)} attempts answered 503 or unanswered meanwhile, every one accepted ` +
        `on a resend (most attempts for one callback: ${mostAttempts}); ${result.acknowledged} acknowledged, ` +
        `${resent} resent and answered byte for byte; the replica acknowledged ${acknowledgedCommits} commits under load, ${unacknowledgedCommits} went without`,
    );
  });

  it("never writes to the old primary when it comes back fenced: its writes are 503s, never a 4xx or a stored answer", async () => {
    const { system, sim, players } = running;
    const oldPrimary = replicated().first;
    const newPrimary = system.mariadb;
    // It restarts (crash recovery) read-only, as a failover tool leaves a demoted primary; then a
    // misdirected address sends the wallet to it for a while.
    await oldPrimary.restart();
    await asRoot(oldPrimary, (connection) => connection.query("SET GLOBAL read_only = ON"));
    const database = new URL(system.ledger.url).pathname.slice(1);
    const rowsOnOld = () =>
      asRoot(oldPrimary, async (connection) => {
        const [rows] = await connection.query(
          `SELECT (SELECT COUNT(*) FROM \`${database}\`.journal_entries) AS journal, ` +
            `(SELECT COUNT(*) FROM \`${database}\`.idempotency_records) AS answers`,
        );
        return (rows as Array<{ journal: number; answers: number }>)[0];
      });
    const before = await rowsOnOld();
    let during: Record<string, number> = {};
    const result = await underLoad(system, sim, players, "fenced-old-primary", async () => {
      system.moveDatabase(oldPrimary);
      // From half a second after the move (what was in flight has been answered) to its end.
      await pause(500);
      const start = (await simSummary(sim)).stats.byStatus;
      await pause(2_500);
      during = delta(start, (await simSummary(sim)).stats.byStatus);
      system.moveDatabase(newPrimary);
    });
    // Nothing reached the fenced server's ledger; every refused write was a 503 the platform resent.
    expect(await rowsOnOld()).toEqual(before);
    // Not even a read: no stored answer replayed, no balance, from the server the ledger moved away from.
    expect(Object.keys(during).filter((key) => !key.endsWith(" 503") && !key.endsWith(" no answer"))).toEqual(
      [],
    );
    expect(unservedAttempts(during)).toBeGreaterThan(0);
    expect(logged(system, "connected to a read-only server").length).toBeGreaterThan(0);
    expect(result.problems).toEqual([]);
    expect(result.sim.gaveUp).toBe(0);
    expect(await countRows(system.ledger, "journal_entries")).toBeGreaterThan(before?.journal ?? 0);
    console.log(
      `[faults] fenced-old-primary: attempts in 2.5 s on the fenced old primary: ${JSON.stringify(during)}; ` +
        `its ledger unchanged (${before?.journal} journal lines, ${before?.answers} stored answers)`,
    );
  });
});

/** What each status count grew by between two snapshots of the simulator's counts. */
function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, count]) => [key, count - (before[key] ?? 0)] as const)
      .filter(([, grown]) => grown > 0),
  );
}
