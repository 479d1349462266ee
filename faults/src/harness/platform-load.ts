import { createPlayer } from "@wallet/ledger/verbs/create-player";
import { grantFreeBets } from "@wallet/ledger/verbs/grant-free-bets";
import { mintUserToken } from "@wallet/ledger/verbs/mint-user-token";
import type { SimSummary } from "@wallet/platform-sim/app";
import type { SeenAnswer } from "@wallet/platform-sim/engine/stats";
import type { AppProcess } from "@wallet/system-tests/harness/processes/app-process";
import type { FaultSystem } from "./fault-system.ts";
import { testTenants } from "./fault-system.ts";

export type { SeenAnswer, SimSummary };

export interface LaunchedPlayer {
  tenantId: number;
  userId: string;
  playerId: number;
}

/**
 * Players of both test tenants with a wallet, a few free bets and a crash-game session the
 * simulator opened (contract A2, as the operator API launches them), so its rounds include them.
 */
export async function launchPlayers(
  system: FaultSystem,
  sim: AppProcess,
  count: number,
  balance = 5_000_000n,
): Promise<LaunchedPlayer[]> {
  const ctx = system.ledger.ctx;
  const players: LaunchedPlayer[] = [];
  for (let index = 0; index < count; index++) {
    const tenant = testTenants[index % testTenants.length] ?? testTenants[0];
    if (!tenant) throw new Error("no tenant");
    const tenantId = tenant.operatorId;
    const input = { tenantId, username: `faults-${index}`, currency: "EUR", balance, maxbet: 5_000n };
    const { playerId, userId } = await createPlayer({ ctx, input });
    await grantFreeBets({ ctx, input: { tenantId, userId, count: 3 } });
    const { userToken } = await mintUserToken({ ctx, input: { tenantId, userId, ttlSeconds: 3600 } });
    const query = new URLSearchParams({
      userToken,
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
    });
    const launched = await fetch(`http://127.0.0.1:${sim.port}/api/v1/launch/crashGame?${query}`, {
      headers: { "x-public-key": tenant.publicKey },
    });
    if (launched.status !== 200) throw new Error(`launch failed: ${await launched.text()}`);
    players.push({ tenantId, userId, playerId });
  }
  return players;
}

/** Starts crash rounds in the background (until `stopPlay`), with a free bet and a void now and then. */
export async function startPlay(sim: AppProcess, pauseMs = 20): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${sim.port}/sim/play`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rounds: 100_000, pauseMs, freeBetRate: 0.1, voidRate: 0.05 }),
  });
  if (response.status !== 202) throw new Error(`play refused: ${await response.text()}`);
}

export async function simSummary(sim: AppProcess): Promise<SimSummary> {
  return (await (await fetch(`http://127.0.0.1:${sim.port}/sim/stats`)).json()) as SimSummary;
}

/** Asks the simulator to stop after its current round and waits until it has (its retries may take a while). */
export async function stopPlay(sim: AppProcess, timeoutMs = 120_000): Promise<SimSummary> {
  await fetch(`http://127.0.0.1:${sim.port}/sim/stop`, { method: "POST" });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const summary = await simSummary(sim);
    if (!summary.running) return summary;
    if (Date.now() > deadline) throw new Error(`the simulator is still playing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function seenAnswers(sim: AppProcess): Promise<SeenAnswer[]> {
  const body = (await (await fetch(`http://127.0.0.1:${sim.port}/sim/answers`)).json()) as {
    answers: SeenAnswer[];
  };
  return body.answers;
}

/** Resolves once the platform has had `count` more callbacks answered: load is really flowing. */
export async function callbacksAnswered(sim: AppProcess, count: number, timeoutMs = 30_000): Promise<void> {
  const start = (await simSummary(sim)).stats.callbacks;
  const deadline = Date.now() + timeoutMs;
  while ((await simSummary(sim)).stats.callbacks < start + count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} callbacks answered in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Attempts the simulator counted (by "<label> <status>") as answered with `status` ("503", "no
 * answer"), or how many more since the `before` snapshot of its counts.
 */
export function attemptsAnswered(
  status: string,
  after: Record<string, number>,
  before: Record<string, number> = {},
): number {
  return Object.entries(after)
    .filter(([key]) => key.endsWith(` ${status}`))
    .reduce((sum, [key, count]) => sum + count - (before[key] ?? 0), 0);
}

/** Attempts answered 503 or not at all: each one the platform had to resend. */
export function unservedAttempts(after: Record<string, number>, before: Record<string, number> = {}): number {
  return attemptsAnswered("503", after, before) + attemptsAnswered("no answer", after, before);
}
