import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { unappliedOutboxRows } from "@wallet/ledger/testing/outbox-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { eventually } from "@wallet/queue/testing/eventually";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import { beforeAll, describe, expect, it } from "vitest";
import { callbacksAnswered, seenAnswers, startPlay, stopPlay } from "../harness/platform-load.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { ReplicatedMariaDb } from "../servers/replicated-mariadb.ts";
import { compareAndRepair, runFailoverDrill } from "./failover/drill.ts";
import { recoveryFigures, scoreDrill } from "./failover/drill-score.ts";
import { killAndFailOver } from "./failover/fail-over.ts";
import { lostAnswers } from "./failover/lost-answers.ts";

// The wallet on a primary with a plain asynchronous replica, as MariaDB and MySQL ship: the primary
// answers a commit without waiting for the replica. This scenario shows what that costs, so the docs
// can say with evidence what the wallet requires of its database; it is expected to lose. What it
// proves is that the runbook's drill, run as written, finds the loss: its saved lists are scored
// against the platform's own acknowledgements.
const running = useFaultSystem({
  database: (dir) => ReplicatedMariaDb.start(dir, { semiSync: false }),
  workers: 2,
  players: 12,
});
let operatorApi: AppProcess;
beforeAll(async () => {
  operatorApi = await running.system.startOperatorApi();
}, 60_000);
const replicated = () => running.system.database as ReplicatedMariaDb;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resultsDir = fileURLToPath(new URL("../../results/", import.meta.url));
/** How far behind the replica is when the primary dies: its link is cut this long before. */
const lagMs = 1_500;
/** docs/runbook.md, "After a database failover": the blocks this test runs as written. */
const drillBlocks = {
  roundsAtRisk: "docs/runbook.md#failover-rounds-at-risk",
  lostReports: "docs/runbook.md#failover-lost-reports",
  list: "docs/runbook.md#failover-list",
};
const repairBlocks = {
  round: "docs/runbook.md#failover-round",
  transactions: "docs/runbook.md#failover-transactions",
  adjust: "docs/runbook.md#failover-adjust",
};

describe("failover to an asynchronous replica that is behind", () => {
  it("loses acknowledged callbacks, which ledger:verify cannot see and the runbook's drill all finds", async () => {
    const { system, sim } = running;
    await startPlay(sim);
    await callbacksAnswered(sim, 300);
    // The replica falls behind (its link to the primary's binary log is cut), the primary goes on
    // answering 200, then dies; the failover tool promotes what the replica has. Its log says when.
    replicated().link.setMode("blackhole");
    await pause(lagMs);
    const failoverAt = new Date();
    const killedAtMs = Date.now();
    const { promotedAfterMs } = await killAndFailOver(system, replicated());
    await pause(5_000);
    await stopPlay(sim);
    await eventually(
      async () => ((await unappliedOutboxRows(system.ledger)) === 0 ? true : undefined),
      60_000,
      "side effects",
    );

    const answers = await seenAnswers(sim);
    const lost = await lostAnswers(system.ledger, answers);
    const unheld: typeof lost = [];
    for (const answer of lost)
      if ((await countRows(system.ledger, "idempotency_records", answer.providerTxId ?? "")) === 0)
        unheld.push(answer);
    // The ledger agrees with itself: nothing in it tells that the platform was told otherwise.
    const verified = await verifyLedger(system.ledger.db);
    const drill = await runFailoverDrill(system, operatorApi, failoverAt, "failover-async", drillBlocks);
    const lines = [...drill.atRisk, ...drill.lostWhole];
    const score = await scoreDrill(
      lost,
      lines,
      async (tenantId, roundId) =>
        (await roundStatus({ ctx: system.ledger.ctx, input: { tenantId, roundId } })) !== undefined,
    );
    const recovery = recoveryFigures(answers, lost, killedAtMs, killedAtMs + promotedAfterMs);
    const repair = await compareAndRepair(drill, lost, repairBlocks);

    const result = {
      scenario: "failover-async",
      lagMs,
      acknowledged: answers.filter((answer) => answer.status === 200).length,
      lost: lost.length,
      lostByKind: countBy(lost.map((answer) => answer.label)),
      ...recovery,
      promotedAfterMs,
      point: drill.point,
      listedByReason: countBy(lines.map((line) => `${line.category} ${line.reason}`)),
      lostWithoutStoredAnswer: unheld.length,
      lostLinesListed: drill.atRisk.reduce((sum, line) => sum + (line.lostLines?.length ?? 0), 0),
      ...score,
      verifyProblems: verified.problems.length,
    };
    await mkdir(resultsDir, { recursive: true });
    await writeFile(`${resultsDir}failover-async.json`, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`[faults] failover-async: ${JSON.stringify(result)}`);

    expect(lost.length).toBeGreaterThan(0);
    expect(verified.problems).toEqual([]);
    // Every line names its operator and its players, or says why it cannot.
    for (const line of lines) {
      expect(line.operatorId).toBeGreaterThan(0);
      expect(
        line.userIds === null ? (line as { userIdsUnknown?: string }).userIdsUnknown : line.userIds,
      ).toBeTruthy();
    }
    // Every round that lost an acknowledged callback is listed, and listed as lost, those that left
    // no trace in the ledger included (the acknowledgement log names them); and what is listed as
    // lost did lose one.
    expect(score.unlisted).toEqual([]);
    expect(score.recall).toBe(1);
    expect(score.recallLost).toBe(1);
    expect(score.precisionLost).toBeGreaterThanOrEqual(0.95);
    // The log was read whole: it reaches back past the point on every partition. Every lost callback
    // whose stored answer went too is one of the lines listed, with the amount the platform was told
    // (the adjustment to make). (A ROLL_BACK the new primary answered with a tombstone, its BET lost,
    // is held as an answer but has no journal line: its round is listed by its lost BET.)
    expect(drill.summary).toContain("it reaches back past the point on every partition");
    const logged = new Map(
      drill.atRisk.flatMap((line) =>
        (line.lostLines ?? []).map((lostLine) => [`${line.operatorId}:${lostLine.providerTxId}`, lostLine]),
      ),
    );
    const told = (answer: (typeof lost)[number]) =>
      String(BigInt(answer.amount ?? 0) * (answer.label === "BET" ? -1n : 1n));
    expect(
      unheld
        .filter(
          (answer) => logged.get(`${answer.operatorId}:${answer.providerTxId}`)?.amount !== told(answer),
        )
        .map((answer) => `${answer.label} ${answer.providerTxId}`),
    ).toEqual([]);

    // Steps 3 and 4 on a lost round: the operator API shows it and its players; one adjustment per
    // lost line, referenced by the line's provider_tx_id, lands in the player's journal.
    if (!repair) throw new Error(`no lost round with a money line to repair: ${JSON.stringify(result)}`);
    const { line, repaired, amount } = repair;
    // A round the ledger holds no row of (lost whole, or known only by its effects) is a 404. Else it
    // shows the players the ledger holds, all of them in the line (which adds a lost BET's player,
    // named by its refused WIN); none for a round whose every bet was lost, its players then named
    // only by the platform's history.
    if (line.createdAt === null)
      expect(repair.round).toEqual({ code: 404, message: `round ${line.roundId} not found` });
    else {
      expect(repair.round).toMatchObject({ round_id: line.roundId, operator_id: line.operatorId });
      const shown = (repair.round as { user_ids: string[] }).user_ids;
      if (line.userIds === null) expect(shown).toEqual([]);
      else expect(line.userIds).toEqual(expect.arrayContaining([...shown, repaired.userId]));
    }
    expect(Array.isArray(repair.journalBefore.items)).toBe(true);
    expect(repair.adjusted).toMatchObject({
      user_id: repaired.userId,
      reference: repaired.providerTxId,
      amount,
    });
    expect(repair.journalAfter.items[0]).toMatchObject({
      kind: "ADJUSTMENT",
      amount,
      provider_tx_id: `operator-adjustment:${repaired.providerTxId}`,
    });
  });
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
