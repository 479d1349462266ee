import { randomUUID } from "node:crypto";
import { drainSideEffects } from "../../drain.ts";
import { betBody, closeBody, settleBody } from "../../load/bodies.ts";
import type { SeededPlayer } from "../../seed.ts";
import { latency, round } from "../../stats.ts";
import { playRound, signedSender } from "../callbacks.ts";
import type { ScalingRun, SystemA } from "../context.ts";
import type { Snapshot } from "../counters.ts";
import { describeWindow, lessBackground } from "../window.ts";

/**
 * serial: one player, one callback at a time, `SCALING_SERIAL_CALLBACKS` of each verb in turn. With
 * nothing else running, each verb's window is that verb's own cost: Redis commands, statements,
 * commits and CPU per callback, and the latency floor. CLOSE_ROUND is measured twice: the answer
 * alone, and until its side effects are applied.
 */
export async function serialPhase(run: ScalingRun, a: SystemA): Promise<void> {
  const { db, meter } = a;
  run.say(`==> serial: one player, ${run.settings.SCALING_SERIAL_CALLBACKS} of each verb, one at a time`);
  const player = a.players[0] as SeededPlayer;
  const { send, close } = signedSender(a.system.gatewayUrl, 1);
  const statuses: Record<string, number> = {};
  const latencies: Record<string, number[]> = {};
  const record = (action: string, answer: { status: number; ms: number }) => {
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const list = latencies[action] ?? [];
    list.push(answer.ms);
    latencies[action] = list;
  };
  // Warm the code paths and connections, then let the warm-up's side effects finish outside the windows.
  for (let warm = 0; warm < 20; warm++) await playRound(send, player, `scaling-${randomUUID()}`, () => {});
  await drainSideEffects(db);
  const rounds = Array.from({ length: run.settings.SCALING_SERIAL_CALLBACKS }, () => ({
    roundId: `scaling-${randomUUID()}`,
    betId: randomUUID(),
  }));
  const serial: Record<string, unknown> = {};
  const verb = async (
    name: string,
    one: (r: (typeof rounds)[number]) => Promise<{ status: number; ms: number }>,
  ): Promise<Snapshot> => {
    const before = await meter.snap();
    for (const r of rounds) record(name, await one(r));
    const after = await meter.snap();
    const window = describeWindow(before, after, rounds.length);
    serial[name] = {
      latency: latency(latencies[name] ?? []),
      window,
      lessIdleBackground: lessBackground(window, a.idle),
    };
    return after;
  };
  await verb("BET", (r) => send("/withdraw", betBody(player, r.roundId, r.betId, 1_000)));
  await verb("WIN", (r) => send("/deposit", settleBody(player, r.roundId, r.betId, 2_000)));
  const before = await meter.snap();
  const closed = await verb("CLOSE_ROUND", (r) => send("/deposit", closeBody(r.roundId, 1_000, 2)));
  await drainSideEffects(db);
  const drained = await meter.snap();
  const withEffects = describeWindow(before, drained, rounds.length);
  serial.CLOSE_ROUND_with_side_effects = {
    window: withEffects,
    lessIdleBackground: lessBackground(withEffects, a.idle),
    drainSecondsAfterLastClose: round((drained.at - closed.at) / 1000),
  };
  serial.statuses = statuses;
  close();
  run.results.serial = serial;
  run.say(`  serial: ${JSON.stringify(serial)}`);
}
