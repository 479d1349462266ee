import { randomUUID } from "node:crypto";
import os from "node:os";
import type { RedisClient } from "@wallet/queue/redis";
import { settleDatabase } from "../settle.ts";
import { round } from "../stats.ts";
import { type CloseCaseName, type CloseToSend, closeFor } from "./close-cases.ts";
import type { Condition } from "./conditions.ts";
import type { ClosesEnv } from "./env.ts";
import { locksLost } from "./lost-locks.ts";
import { type Growth, MemorySampler } from "./memory.ts";
import type { PlayersConfig } from "./players/config.ts";
import { startPlayers } from "./players/process.ts";
import { type PlayersWindow, playersWindow } from "./players/window.ts";
import { type CloseDelivery, deliverClose } from "./send-close.ts";
import type { Stack } from "./stack.ts";
import { closesTenants } from "./tenants.ts";
import { type Counters, counterDelta, workerCounters } from "./worker-counters.ts";

/** One close sent to one version under one condition, and what it cost the others. */
export interface CellResult {
  version: string;
  condition: Condition;
  close: CloseCaseName;
  bytes: number;
  expect: "closed" | "refused";
  delivery: CloseDelivery;
  /** Stored when the cell ended (its refusal, or its round closed). */
  storedAtEnd: boolean;
  /** First send → its round's four effects applied (a closed close), ms; null when they were not. */
  effectsAppliedMs: number | null;
  others: { window: PlayersWindow; wholeCell: PlayersWindow; players: string };
  memory: Record<string, Growth>;
  stalled: Counters;
  failed: Counters;
  intake: Counters;
  /** Warn-or-worse lines the worker logged during the cell (the first few of the run are printed as they come). */
  workerProblems: number;
  /** Jobs whose lock the worker could not renew during the cell (`lost-locks.ts`). */
  lostLocks: string[];
  /** The machine's 1-minute load average as the close was sent: other work on it shows here. */
  loadAverage: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The other players of a condition, one process per operator. */
function othersFor(stack: Stack, condition: Condition, env: ClosesEnv, seed: number) {
  const loaded =
    condition === "load" || (condition === "contention" && env.BENCH_CLOSES_CONTENTION_LOAD === "1");
  const configs: PlayersConfig[] = closesTenants.map((tenant) => ({
    target: stack.target,
    publicKey: tenant.publicKey,
    secretKey: tenant.secretKey,
    // Loaded: c32 per operator over all its players; idle: two players per operator, four in all.
    players: (stack.players.get(tenant.operatorId) ?? []).slice(0, loaded ? undefined : 2),
    concurrency: loaded ? env.BENCH_CLOSES_LOAD_CONCURRENCY : 2,
    paceMs: loaded ? 0 : 20,
    balance: !loaded,
    resendBaseMs: env.BENCH_CLOSES_RESEND_BASE_MS,
    maxSends: env.BENCH_CLOSES_SENDS,
    timeoutMs: env.BENCH_CLOSES_SEND_TIMEOUT_MS,
    seed: seed + tenant.operatorId,
  }));
  const description = loaded
    ? `signed closed loops, c${env.BENCH_CLOSES_LOAD_CONCURRENCY} per operator × 2 (BET, WIN)`
    : "4 players, 2 per operator (BET, WIN, /balance, 20 ms apart)";
  return { running: configs.map(startPlayers), description };
}

/** Polls until `done` or `limitMs`; resolves with the ms waited, or null when it never was. */
async function waitUntil(done: () => Promise<boolean>, limitMs: number): Promise<number | null> {
  const started = performance.now();
  for (;;) {
    if (await done()) return performance.now() - started;
    if (performance.now() - started > limitMs) return null;
    await sleep(250);
  }
}

/**
 * One cell: the other players start and warm up, the worker's and Redis' memory is sampled, the
 * close is delivered as the platform delivers it, then the cell waits for the close to be stored and
 * (a taken close) for its four side effects, so its work does not spill into the next cell.
 */
export async function runCell(
  stack: Stack,
  name: CloseCaseName,
  condition: Condition,
  env: ClosesEnv,
  redis: RedisClient,
  seed: number,
): Promise<CellResult> {
  const roundId = `closes-${name}-${stack.version.name}-${randomUUID().slice(0, 8)}`;
  const close = closeFor(name, roundId);
  await settleDatabase(stack.database.db, 5_000);

  const sampler = new MemorySampler(
    { worker: stack.worker.pid, gateway: stack.gateway.pid },
    redis,
    env.BENCH_CLOSES_SAMPLE_MS,
  );
  const cellStarted = Date.now();
  // From where the stack's last close left off: what the worker does between two closes counts in the next.
  const { counters: before, until: since, problems: problemsBefore } = stack.seen;
  const others = othersFor(stack, condition, env, seed);
  let measured: Awaited<ReturnType<typeof deliverAndWait>>;
  let memory: Record<string, Growth>;
  let loadAverage = 0;
  try {
    await Promise.all(others.running.map((players) => players.playing));
    sampler.start();
    await sleep(Math.max(1_000, env.BENCH_CLOSES_WARMUP_SECONDS * 1000));
    sampler.mark();
    loadAverage = round(os.loadavg()[0] ?? 0, 2);
    measured = await deliverAndWait(stack, close, roundId, env);
  } catch (error) {
    await Promise.allSettled(others.running.map((players) => players.stop()));
    throw error;
  } finally {
    memory = sampler.stop();
  }
  const results = await Promise.all(others.running.map((players) => players.stop()));
  const after = await workerCounters(stack.worker.metricsPort);
  const until = Date.now();
  stack.seen = { counters: after, until, problems: stack.worker.problems.count };
  const { delivery } = measured;
  return {
    version: stack.version.name,
    condition,
    close: name,
    bytes: close.raw.length,
    expect: close.expect,
    ...measured,
    others: {
      window: playersWindow(results, delivery.from, delivery.to),
      wholeCell: playersWindow(results, cellStarted, Date.now()),
      players: others.description,
    },
    memory,
    stalled: counterDelta(before.stalled, after.stalled),
    failed: counterDelta(before.failed, after.failed),
    intake: counterDelta(before.intake, after.intake),
    workerProblems: stack.worker.problems.count - problemsBefore,
    lostLocks: locksLost(stack.worker, since, until),
    loadAverage,
  };
}

/**
 * Delivers the close as the platform does, then waits for it to be stored (a close never answered
 * may still be stored by work under way) and, a taken close, for its round's four side effects.
 */
async function deliverAndWait(stack: Stack, close: CloseToSend, roundId: string, env: ClosesEnv) {
  const { operatorId } = closesTenants[0];
  const isStored = () => stack.stored.isStored(close.expect, operatorId, roundId, close.raw);
  const policy = {
    resendBaseMs: env.BENCH_CLOSES_RESEND_BASE_MS,
    maxSends: env.BENCH_CLOSES_SENDS,
    timeoutMs: env.BENCH_CLOSES_SEND_TIMEOUT_MS,
  };
  const delivery = await deliverClose(stack.target, close.raw, closesTenants[0], policy, isStored);
  const storedAtEnd = (await waitUntil(isStored, delivery.answeredBy === null ? 5_000 : 30_000)) !== null;
  let effectsAppliedMs: number | null = null;
  if (storedAtEnd && close.expect === "closed") {
    const applied = () => stack.stored.effectsApplied(operatorId, roundId);
    if ((await waitUntil(applied, env.BENCH_CLOSES_EFFECTS_SECONDS * 1000)) !== null)
      effectsAppliedMs = round(Date.now() - delivery.from, 0);
  }
  return { delivery, storedAtEnd, effectsAppliedMs };
}
