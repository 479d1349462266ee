import type { Db } from "@wallet/ledger/db";
import { drainSideEffects } from "../drain.ts";
import type { LoadConfig } from "../load/config.ts";
import { benchTenant } from "../product.ts";
import { forkLoad } from "../run-load.ts";
import type { SeededPlayer } from "../seed.ts";
import type { ScalingRun } from "./context.ts";
import type { Meter, Snapshot } from "./counters.ts";
import { type LockWaitSampler, type LockWaits, lockWaitSampler, withoutSampler } from "./lock-waits.ts";
import type { ScalingSettings } from "./settings.ts";
import type { System } from "./system.ts";
import { describeWindow } from "./window.ts";

/** `pnpm bench`'s workload (closed loops, BET → WIN/ROLL_BACK → CLOSE_ROUND, 2% resent) at `concurrency`. */
export function scalingWorkload(
  settings: ScalingSettings,
  target: string,
  players: SeededPlayer[],
  concurrency: number,
): LoadConfig {
  return {
    target,
    publicKey: benchTenant.publicKey,
    secretKey: benchTenant.secretKey,
    concurrency,
    warmupSeconds: settings.SCALING_WARMUP_SECONDS,
    seconds: settings.SCALING_SECONDS,
    players,
    rollbackRate: 0.05,
    closeRounds: true,
    duplicateRate: 0.02,
    timeoutMs: 10_000,
    seed: concurrency,
  };
}

/**
 * A closed-loop load run with every counter read at the window's start, end, and once side effects
 * drained; row-lock waits are sampled during the window to see which statements wait on which.
 */
export async function meteredLoad(
  run: ScalingRun,
  meter: Meter,
  db: Db,
  system: System,
  players: SeededPlayer[],
  concurrency: number,
) {
  let start: Snapshot | undefined;
  let end: Snapshot | undefined;
  let drained: Snapshot | undefined;
  let drain = { pendingAtEnd: 0, drainSeconds: 0 };
  let sampler: LockWaitSampler | undefined;
  let lockWaits: LockWaits | undefined;
  const summary = await forkLoad(scalingWorkload(run.settings, system.gatewayUrl, players, concurrency), {
    forked: (pid) => {
      run.groups.load = [pid];
    },
    measuring: async () => {
      start = await meter.snap();
      sampler = lockWaitSampler(db);
    },
    measured: async () => {
      lockWaits = await sampler?.stop();
      end = await meter.snap();
      drain = await drainSideEffects(db);
      drained = await meter.snap();
    },
  });
  if (!start || !end || !drained) throw new Error("load run without its snapshots");
  const { acknowledged: _acknowledged, ...rest } = summary;
  const samplerQueries = sampler?.queries ?? 0;
  return {
    concurrency,
    partitions: system.partitions,
    workers: system.workers.length,
    load: {
      throughput: rest.throughput,
      latencyMs: rest.latencyMs,
      byAction: rest.byAction,
      statuses: rest.statuses,
    },
    sideEffects: drain,
    lockWaits,
    /** Counters over the measured window only. */
    window: withoutSampler(describeWindow(start, end, rest.requests), samplerQueries),
    /** CPU and statements charged per callback until the window's side effects were applied (as pnpm bench). */
    untilDrained: withoutSampler(describeWindow(start, drained, rest.requests), samplerQueries),
  };
}
