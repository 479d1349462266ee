import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { dataEndsBefore, roundsAtRisk } from "@wallet/ledger/reads/rounds-at-risk";
import { unappliedOutboxRows } from "@wallet/ledger/testing/outbox-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { eventually } from "@wallet/queue/testing/eventually";
import { describe, expect, it } from "vitest";
import { callbacksAnswered, seenAnswers, startPlay, stopPlay } from "../harness/platform-load.ts";
import { useFaultSystem } from "../harness/use-fault-system.ts";
import { ReplicatedMariaDb } from "../servers/replicated-mariadb.ts";
import { killAndFailOver } from "./failover/fail-over.ts";
import { lostAnswers } from "./failover/lost-answers.ts";

// The wallet on a primary with a plain asynchronous replica, as MariaDB and MySQL ship: the primary
// answers a commit without waiting for the replica. This scenario shows what that costs, so the docs
// can say with evidence what the wallet requires of its database; it is expected to lose.
const running = useFaultSystem({
  database: (dir) => ReplicatedMariaDb.start(dir, { semiSync: false }),
  workers: 2,
  players: 12,
});
const replicated = () => running.system.database as ReplicatedMariaDb;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resultsDir = fileURLToPath(new URL("../../results/", import.meta.url));
const ledgerDir = fileURLToPath(new URL("../../../packages/ledger/", import.meta.url));
const workerDir = fileURLToPath(new URL("../../../apps/worker/", import.meta.url));
const run = promisify(execFile);
/** How far behind the replica is when the primary dies: its link is cut this long before. */
const lagMs = 1_500;

describe("failover to an asynchronous replica that is behind", () => {
  it("loses acknowledged callbacks, which ledger:verify cannot see and the rounds at risk all show", async () => {
    const { system, sim } = running;
    await startPlay(sim);
    await callbacksAnswered(sim, 300);
    // The replica falls behind (its link to the primary's binary log is cut), the primary goes on
    // answering 200, then dies; the failover tool promotes what the replica has.
    replicated().link.setMode("blackhole");
    await pause(lagMs);
    const failoverAt = new Date();
    await killAndFailOver(system, replicated());
    await pause(5_000);
    await stopPlay(sim);
    await eventually(
      async () => ((await unappliedOutboxRows(system.ledger)) === 0 ? true : undefined),
      60_000,
      "side effects",
    );

    const answers = await seenAnswers(sim);
    const lost = await lostAnswers(system.ledger, answers);
    // The ledger agrees with itself: nothing in it tells that the platform was told otherwise.
    const verified = await verifyLedger(system.ledger.db);
    const point = await dataEndsBefore(system.ledger.db, failoverAt);
    if (!point) throw new Error("nothing replicated");
    const atRisk = await roundsAtRisk(system.ledger.db, { point });
    // The rounds lost whole: their reports, published to Redis (which the failover did not touch)
    // before the old primary died, name closes the ledger no longer holds.
    const reportsRun = await run(
      process.execPath,
      ["--import", "tsx", "src/cli/side-effects.ts", "lost-reports", "--since", point.toISOString()],
      { cwd: workerDir, env: { ...process.env, ...system.appEnv() } },
    );
    const lostWhole = lines(reportsRun.stdout).map(
      (line) => JSON.parse(line) as { tenantId: number; roundId: string },
    );
    const flagged = new Set([...atRisk, ...lostWhole].map((round) => `${round.tenantId}:${round.roundId}`));

    // Each round that lost a line is flagged, or left no trace at all: played wholly in the window
    // between the point and the failover, which only the platform's history shows (the runbook).
    const roundsLosing = new Map<string, { tenantId: number; roundId: string; lines: string[] }>();
    for (const answer of lost) {
      const key = `${answer.operatorId}:${answer.roundId}`;
      const round = roundsLosing.get(key) ?? {
        tenantId: answer.operatorId,
        roundId: answer.roundId ?? "",
        lines: [],
      };
      round.lines.push(`${answer.label} ${answer.providerTxId}`);
      roundsLosing.set(key, round);
    }
    // No false alarm: each round a report names as lost did lose an acknowledged line.
    expect(lostWhole.filter((round) => !roundsLosing.has(`${round.tenantId}:${round.roundId}`))).toEqual([]);
    const unflagged: string[] = [];
    const traceless: string[] = [];
    for (const [key, round] of roundsLosing) {
      if (flagged.has(key)) continue;
      const status = await roundStatus({ ctx: system.ledger.ctx, input: round });
      if (status === undefined) traceless.push(key);
      else unflagged.push(`${key}: ${round.lines.join(", ")}`);
    }
    // A traceless round's lost lines were all answered inside the window (clocks of one machine).
    const outsideWindow = lost.filter(
      (answer) =>
        traceless.includes(`${answer.operatorId}:${answer.roundId}`) &&
        answer.answeredAt < point.getTime() - 1_000,
    );

    const result = {
      scenario: "failover-async",
      lagMs,
      acknowledged: answers.filter((answer) => answer.status === 200).length,
      lost: lost.length,
      lostByKind: countBy(lost.map((answer) => answer.label)),
      roundsLosing: roundsLosing.size,
      roundsAtRisk: atRisk.length,
      atRiskByReason: countBy(atRisk.map((round) => round.reason)),
      roundsLostWholeFoundByReports: lostWhole.length,
      roundsTraceless: traceless.length,
      verifyProblems: verified.problems.length,
    };
    await mkdir(resultsDir, { recursive: true });
    await writeFile(`${resultsDir}failover-async.json`, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`[faults] failover-async: ${JSON.stringify(result)}`);

    // What the operator runs (docs/runbook.md) lists the same rounds, found from the failover time alone.
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "src/cli/rounds-at-risk.cli.ts", "--failover-at", failoverAt.toISOString()],
      { cwd: ledgerDir, env: { ...process.env, DATABASE_URL: system.ledger.url } },
    );
    const listed = lines(stdout).map(
      (line) => JSON.parse(line) as { tenantId: number; roundId: string; reason: string },
    );
    expect(listed.map((round) => `${round.tenantId}:${round.roundId}:${round.reason}`).sort()).toEqual(
      atRisk.map((round) => `${round.tenantId}:${round.roundId}:${round.reason}`).sort(),
    );
    expect(stderr).toContain(`the surviving data ends at ${point.toISOString()}`);

    expect(lost.length).toBeGreaterThan(0);
    expect(verified.problems).toEqual([]);
    expect(unflagged).toEqual([]);
    expect(outsideWindow).toEqual([]);
  });
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** A command's output, one JSON value a line. */
function lines(stdout: string): string[] {
  return stdout.trim().split("\n").filter(Boolean);
}
