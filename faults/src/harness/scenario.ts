import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sign } from "@wallet/contracts/hmac";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import type { FaultSystem } from "./fault-system.ts";
import { testTenants } from "./fault-system.ts";
import { checkInvariants, type InvariantReport } from "./invariants.ts";
import {
  callbacksAnswered,
  type LaunchedPlayer,
  type SimSummary,
  seenAnswers,
  startPlay,
  stopPlay,
} from "./platform-load.ts";

const resultsDir = fileURLToPath(new URL("../../results/", import.meta.url));
/** Slack over the callback deadline for an answer to reach the platform on a loaded 2-core machine. */
const ANSWER_SLACK_MS = 1_500;

export interface ScenarioResult extends InvariantReport {
  scenario: string;
  /** From the end of the fault to the first callback answered 200 again. */
  recoveryMs: number;
  sim: SimSummary["stats"];
}

/**
 * One fault under load: the platform plays rounds; once callbacks flow, `inject` runs the fault
 * and resolves when the fault is over (a process restarted, a proxy healed). Recovery is timed
 * from then to the first signed `/balance` answered 200; the load goes on for `afterMs`, stops,
 * and the invariants are checked on everything the platform saw, plus one more: no attempt waited
 * longer than the callback deadline (and some slack) for its answer. The result is written to
 * faults/results/<name>.json and printed.
 */
export async function underLoad(
  system: FaultSystem,
  sim: AppProcess,
  players: LaunchedPlayer[],
  name: string,
  inject: () => Promise<void>,
  options: { afterMs?: number; warmupCallbacks?: number } = {},
): Promise<ScenarioResult> {
  await startPlay(sim);
  await callbacksAnswered(sim, options.warmupCallbacks ?? 60);
  await inject();
  const recoveryMs = await timeToRecover(system, players[0]);
  await new Promise((resolve) => setTimeout(resolve, options.afterMs ?? 2_000));
  const summary = await stopPlay(sim);
  const report = await checkInvariants(system.ledger, players, await seenAnswers(sim));
  // The deadline holds whatever fails behind the gateway: the platform is answered (503 at worst) in time.
  const slowest = summary.stats.latencyMs.max;
  if (slowest > system.deadlineMs + ANSWER_SLACK_MS)
    report.problems.push(
      `the platform waited ${slowest} ms for an answer; the deadline is ${system.deadlineMs} ms`,
    );
  const result = { scenario: name, recoveryMs, ...report, sim: summary.stats };
  await mkdir(resultsDir, { recursive: true });
  await writeFile(`${resultsDir}${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `[faults] ${name}: recovered in ${recoveryMs} ms; ${report.acknowledged} acknowledged; ` +
      `${summary.stats.retries} retries; gave up ${summary.stats.gaveUp}; ${report.roundCloses} round closes in the ledger; ` +
      `side effects drained in ${report.drainMs} ms; problems: ${report.problems.length}`,
  );
  return result;
}

/** Polls a signed `/balance` through the front proxy every 50 ms until one is answered 200. */
export async function timeToRecover(
  system: FaultSystem,
  player: LaunchedPlayer | undefined,
  timeoutMs = 60_000,
): Promise<number> {
  if (!player) throw new Error("no player to probe with");
  const tenant = testTenants.find((entry) => entry.operatorId === player.tenantId);
  if (!tenant) throw new Error(`no tenant ${player.tenantId}`);
  const raw = JSON.stringify({ user_id: player.userId, currency: "EUR" });
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const response = await fetch(`${system.walletUrl}/balance`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-public-key": tenant.publicKey,
          "x-signature": sign(raw, tenant.secretKey),
        },
        body: raw,
        signal: AbortSignal.timeout(3_000),
      });
      await response.text();
      if (response.status === 200) return Math.round(performance.now() - started);
    } catch {
      // refused or timed out: not back yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not recovered ${timeoutMs} ms after the fault`);
}
