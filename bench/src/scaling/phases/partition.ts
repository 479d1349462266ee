import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { partitionOf, playerKey, roundKey } from "@wallet/contracts/partition";
import { drainSideEffects } from "../../drain.ts";
import { benchTenant } from "../../product.ts";
import type { SeededPlayer } from "../../seed.ts";
import { latency } from "../../stats.ts";
import { type Answered, playRound, signedSender } from "../callbacks.ts";
import type { ScalingRun, SystemA } from "../context.ts";
import type { Snapshot } from "../counters.ts";
import { type LockWaitSampler, type LockWaits, lockWaitSampler, withoutSampler } from "../lock-waits.ts";
import { describeWindow } from "../window.ts";

/**
 * partition: every callback on partition 0 (its players, rounds whose ids hash there), 8 closed loops.
 * A partition's jobs run one at a time, so this is one partition's serial ceiling: the throughput
 * that sizing the partition count divides the target by.
 */
export async function partitionPhase(run: ScalingRun, a: SystemA): Promise<void> {
  const { db, meter, system } = a;
  const tenantId = benchTenant.operatorId;
  const partitions = system.partitions;
  const mine = a.players.filter((p) => partitionOf(tenantId, playerKey(p.userId), partitions) === 0);
  const loops = Math.min(8, mine.length);
  run.say(`==> one partition saturated: ${mine.length} players of partition 0, ${loops} closed loops`);
  // Round callbacks (WIN, CLOSE_ROUND) are keyed by round, so the round id must hash to partition 0 too.
  const roundOnPartition0 = () => {
    for (;;) {
      const id = `scaling-${randomUUID()}`;
      if (partitionOf(tenantId, roundKey(id), partitions) === 0) return id;
    }
  };
  const { send, close } = signedSender(system.gatewayUrl, loops);
  const startAt = performance.now();
  const from = startAt + run.settings.SCALING_WARMUP_SECONDS * 1000;
  const until = from + Math.min(15, run.settings.SCALING_SECONDS) * 1000;
  const inWindow: number[] = [];
  const byAction: Record<string, number[]> = {};
  const statuses: Record<string, number> = {};
  const record = (action: string, answer: Answered) => {
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.ended < from || answer.ended > until) return;
    inWindow.push(answer.ms);
    const list = byAction[action] ?? [];
    list.push(answer.ms);
    byAction[action] = list;
  };
  let start: Snapshot | undefined;
  let end: Snapshot | undefined;
  let sampler: LockWaitSampler | undefined;
  let lockWaits: LockWaits | undefined;
  const snaps = [
    sleep(from - performance.now()).then(async () => {
      start = await meter.snap();
      sampler = lockWaitSampler(db);
    }),
    sleep(until - performance.now()).then(async () => {
      lockWaits = await sampler?.stop();
      end = await meter.snap();
    }),
  ];
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      const own = mine.filter((_, index) => index % loops === loop);
      let next = 0;
      while (performance.now() < until) {
        await playRound(send, own[next++ % own.length] as SeededPlayer, roundOnPartition0(), record);
      }
    }),
  );
  await Promise.all(snaps);
  close();
  const drain = await drainSideEffects(db);
  if (!start || !end) throw new Error("partition run without its snapshots");
  const window = withoutSampler(describeWindow(start, end, inWindow.length), sampler?.queries ?? 0);
  run.results.partition = {
    players: mine.length,
    loops,
    latency: latency(inWindow),
    byAction: Object.fromEntries(
      Object.entries(byAction).map(([action, values]) => [action, latency(values)]),
    ),
    statuses,
    window,
    lockWaits,
    sideEffects: drain,
  };
  run.say(`  one partition: ${JSON.stringify(run.results.partition)}`);
}
