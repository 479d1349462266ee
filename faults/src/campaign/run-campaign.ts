import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { journalLines } from "@wallet/ledger/testing/campaign-reads";
import { unappliedOutboxRows } from "@wallet/ledger/testing/outbox-reads";
import { verifyLedger } from "@wallet/ledger/verify";
import { eventually } from "@wallet/queue/testing/eventually";
import { plantedBugEnv } from "@wallet/system-tests/harness/env";
import { callbacksAnswered, seenAnswers, startPlay, stopPlay } from "../harness/platform-load.ts";
import { GaleraCluster } from "../servers/galera-cluster.ts";
import { ReplicatedMariaDb } from "../servers/replicated-mariadb.ts";
import type { PlayerStart } from "./checker/player-start.ts";
import { CounterWatch } from "./checks/counters-monotonic.ts";
import { effectProblems } from "./checks/effects-once.ts";
import { unexplainedLines } from "./checks/journal-explained.ts";
import { linearizabilityViolations } from "./checks/linearizable.ts";
import { storedOnceProblems } from "./checks/stored-once.ts";
import { campaignEnv } from "./env.ts";
import { joinHistory, platformOperation } from "./history/from-platform.ts";
import type { Operation } from "./history/operation.ts";
import { proxiesOf } from "./injectors/link-faults.ts";
import { runSchedule } from "./injectors/run-schedule.ts";
import { links } from "./schedule/catalog.ts";
import { formatSchedule, planSchedule, type Schedule, type Topology } from "./schedule/plan.ts";
import { Random } from "./schedule/random.ts";
import { CampaignSystem } from "./system.ts";
import type { CampaignVerdict, Violation } from "./verdict.ts";
import { BackOffice } from "./workload/back-office.ts";
import { OddRounds, oddPlayers, playerStart } from "./workload/odd-rounds.ts";
import { OperatorCalls } from "./workload/operator-calls.ts";
import { PlatformCalls } from "./workload/platform-calls.ts";

export const campaignResultsDir = fileURLToPath(new URL("../../results/campaign/", import.meta.url));

export interface CampaignOptions {
  seed: number;
  minutes: number;
  /** A schedule of its own (the shrinker's, with faults removed); the seed's otherwise. */
  schedule?: Schedule;
  /** What the ledger runs on (the schedule's, when one is given). */
  topology?: Topology;
  /** A planted bug's switch for the workers (`TEST_PLANTED_BUG`): the checker must catch it. */
  plantedBug?: string;
  log?: (line: string) => void;
}

/**
 * One campaign: a system of its own, the simulator's rounds, the operator's back office and the odd
 * rounds as load; the seed's schedule of faults over it; then every fault healed, the load stopped,
 * the side effects drained, the history checked against the four rules. The schedule, the history
 * and the verdict are saved under faults/results/campaign/seed-<seed>/.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignVerdict> {
  const began = performance.now();
  const log = options.log ?? ((line: string) => console.log(`[campaign ${options.seed}] ${line}`));
  const schedule = options.schedule ?? planSchedule(options.seed, options.minutes, options.topology);
  const tag = `c${options.seed}`;
  log(formatSchedule(schedule));
  const system = await CampaignSystem.start({
    workers: 2,
    players: 12,
    ...(schedule.topology === "semisync"
      ? { database: (dir: string) => ReplicatedMariaDb.start(dir, { semiSync: true }) }
      : {}),
    // Two nodes written: every read waits for what the cluster ordered before it (docs/databases.md).
    ...(schedule.topology === "galera"
      ? {
          database: (dir: string) =>
            GaleraCluster.start(dir, { syncWait: campaignEnv.CAMPAIGN_GALERA_SYNC_WAIT }),
        }
      : {}),
    workerEnv: options.plantedBug ? plantedBugEnv(options.plantedBug) : {},
  });
  log(`system started in ${((performance.now() - began) / 1000).toFixed(1)} s (${schedule.topology})`);
  try {
    const platform = new PlatformCalls(system);
    const operator = new OperatorCalls(system);
    const workload = new Random(options.seed).fork(0x10ad);
    const odd = await oddPlayers(system, platform, 4, tag);
    const backOffice = new BackOffice(system, operator, workload.fork(1), [...system.players, ...odd], tag);
    const oddRounds = new OddRounds(platform, operator, workload.fork(2), odd, tag);
    const counters = new CounterWatch(system);
    counters.start();
    await startPlay(system.sim);
    await callbacksAnswered(system.sim, 30);
    const startedAt = performance.now();
    let loading = true;
    const workloadErrors: string[] = [];
    const loop = async (act: () => Promise<void>, pauseMs: number) => {
      while (loading) {
        // The load's own calls answer every failure of the system; what throws here is the
        // campaign's own (a setup call to a server a fault has down): noted, and the load goes on.
        await act().catch((error: unknown) => {
          if (workloadErrors.length < 20)
            workloadErrors.push(error instanceof Error ? error.message : String(error));
        });
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    };
    const loads = [loop(() => backOffice.act(), 300), loop(() => oddRounds.play(), 500)];
    const injected = await runSchedule({ system, calls: platform, tag }, schedule, startedAt, log);
    const left = options.minutes * 60_000 - (performance.now() - startedAt);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    loading = false;
    await Promise.all(loads);
    await stopPlay(system.sim);
    await healEverything(system);
    await counters.stop();
    if (workloadErrors.length > 0)
      log(`the load's own calls failed ${workloadErrors.length} times: ${workloadErrors[0]}`);
    log(`load stopped after ${Math.round((performance.now() - startedAt) / 1000)} s; draining and checking`);

    const violations: Violation[] = [];
    const add = (rule: Violation["rule"], messages: string[]) => {
      for (const message of messages) violations.push({ rule, message });
    };
    const drained = await eventually(
      async () => ((await unappliedOutboxRows(system.faults.ledger)) === 0 ? true : undefined),
      120_000,
      "side effects",
    ).catch(() => false);
    if (!drained) add("3 effects", ["side effects still pending 120 s after the load"]);

    const history = joinHistory(
      (await seenAnswers(system.sim)).map(platformOperation),
      platform.stats.answers.map(platformOperation),
      operator.history,
    );
    const starts = [
      ...system.players.map((player) => ({ player, freeBets: playerStart.freeBets })),
      ...odd.map((player) => ({ player, freeBets: 0 })),
    ].map(({ player, freeBets }) => ({
      operatorId: player.tenantId,
      userId: player.userId,
      balance: playerStart.balance,
      maxbet: playerStart.maxbet,
      freeBets,
      currency: "EUR",
    }));
    const linear = linearizabilityViolations(history, starts);
    violations.push(...linear.violations);
    const lines = await journalLines(system.faults.ledger);
    const stored = await storedOnceProblems(system.faults.ledger, system.faults.walletUrl, history);
    add("2 stored once", stored.problems);
    add("2 journal explained", unexplainedLines(lines, history));
    add(
      "2 balances",
      (await verifyLedger(system.faults.ledger.db)).problems.map(
        (problem) => `wallet ${problem.walletId}: ${problem.problem}`,
      ),
    );
    add("3 effects", await effectProblems(system.faults.ledger, lines, history, [...system.players, ...odd]));
    add("4 counters", counters.problems);
    add(
      "fault",
      injected.flatMap((entry) => entry.problems),
    );
    add("workload", backOffice.problems);

    const verdict: CampaignVerdict = {
      seed: options.seed,
      minutes: options.minutes,
      plantedBug: options.plantedBug ?? null,
      schedule,
      injected,
      operations: summarize(history),
      unknownPlayers: linear.unknown,
      violations,
      seconds: Math.round((performance.now() - began) / 1000),
    };
    await save(verdict, history, starts);
    log(
      `${verdict.operations.total} operations (${JSON.stringify(verdict.operations.byStatus)}), ${stored.resent} resent, ` +
        `${counters.scrapes} scrapes; ${violations.length} violations; ${linear.unknown.length} players unknown`,
    );
    return verdict;
  } finally {
    await system.shutdown();
  }
}

/** Whatever the schedule left (it heals each fault itself; this is the belt to its braces). */
async function healEverything(system: CampaignSystem): Promise<void> {
  for (const link of links) {
    for (const proxy of proxiesOf(system, link)) {
      proxy.setMode("pass");
      proxy.setLatency(0);
    }
  }
  for (const role of ["gateway", "worker", "operator-api"]) await system.heal(role);
}

function summarize(history: Operation[]): CampaignVerdict["operations"] {
  const byStatus: Record<string, number> = {};
  for (const op of history) byStatus[op.status] = (byStatus[op.status] ?? 0) + 1;
  return {
    total: history.length,
    platform: history.filter((op) => op.source === "platform").length,
    operator: history.filter((op) => op.source === "operator").length,
    byStatus,
  };
}

async function save(verdict: CampaignVerdict, history: Operation[], starts: PlayerStart[]): Promise<void> {
  const dir = `${campaignResultsDir}seed-${verdict.seed}${verdict.plantedBug ? `-${verdict.plantedBug}` : ""}/`;
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}schedule.txt`, `${formatSchedule(verdict.schedule)}\n`);
  await writeFile(`${dir}history.ndjson`, history.map((op) => JSON.stringify(op)).join("\n"));
  await writeFile(`${dir}verdict.json`, `${JSON.stringify(verdict, null, 2)}\n`);
  // What `recheck.ts` needs to run rule 1 again on this history (money as decimal text).
  await writeFile(
    `${dir}starts.json`,
    `${JSON.stringify(starts, (_key, value) => (typeof value === "bigint" ? String(value) : value), 2)}\n`,
  );
}
