import { drawFault, failoverDraw, type ScheduledFault, stormDraw } from "./catalog.ts";
import { Random } from "./random.ts";

/**
 * What the ledger runs on: one MariaDB server, a primary with a semi-synchronous replica (which adds
 * the failover and the old primary's return to the faults drawn), or a three-node Galera cluster
 * written through two nodes (which adds certification storms through the third).
 */
export const topologies = ["single", "semisync", "galera"] as const;
export type Topology = (typeof topologies)[number];

/** The topology a seed runs on unless one is asked for: every third seed on the replicated pair. */
export function seedTopology(seed: number): Topology {
  return seed % 3 === 0 ? "semisync" : "single";
}

export interface Schedule {
  seed: number;
  minutes: number;
  topology: Topology;
  faults: ScheduledFault[];
}

/** Faults start after the load has run this long, and end this long before it stops. */
const QUIET_START_MS = 5_000;
const QUIET_END_MS = 10_000;

/**
 * The seed's schedule: faults arriving at random (exponential gaps, `perMinute` on average) over
 * `minutes`, each with its target and parameters drawn from the same generator, so the same seed gives
 * the same schedule. Two faults on one resource never overlap (the later one is moved past the
 * earlier's end); faults on different resources do.
 */
export function planSchedule(
  seed: number,
  minutes: number,
  topology: Topology = seedTopology(seed),
  perMinute = 8,
): Schedule {
  const random = new Random(seed);
  const failover = new Random(seed).fork(0xfa11);
  const endMs = minutes * 60_000 - QUIET_END_MS;
  const busyUntil = new Map<string, number>();
  const faults: ScheduledFault[] = [];
  let at = QUIET_START_MS;
  for (;;) {
    at += Math.round((-Math.log(1 - random.next()) * 60_000) / perMinute);
    const draw = drawFault(random);
    const target = draw.target(random);
    const durationMs = draw.durationMs(random);
    const detail = draw.detail(random);
    const resource = draw.holds(target);
    const start = Math.max(at, busyUntil.get(resource) ?? 0);
    if (start >= endMs) break;
    // A fault's end includes the second it takes to heal (a restart): the next one on it waits.
    busyUntil.set(resource, start + durationMs + 1_000);
    faults.push({ index: faults.length, kind: draw.kind, target, atMs: start, durationMs, detail });
  }
  if (topology === "semisync") {
    // Once, in the middle third of the load, on a server no other fault holds then.
    const third = (minutes * 60_000) / 3;
    const wanted = Math.round(third + failover.next() * third);
    const durationMs = failoverDraw.durationMs(failover);
    const detail = failoverDraw.detail(failover);
    const clash = (at: number) =>
      faults.some(
        (fault) =>
          ["mariadb-kill", "mariadb-freeze"].includes(fault.kind) &&
          fault.atMs < at + durationMs + (detail.returnMs ?? 0) + 1_000 &&
          at < fault.atMs + fault.durationMs + 1_000,
      );
    let at = wanted;
    while (clash(at) && at < endMs) at += 1_000;
    faults.push({ index: faults.length, kind: "failover", target: "mariadb", atMs: at, durationMs, detail });
  }
  if (topology === "galera") {
    // Storms of conflicting writes through the third node, from a generator of their own (the other
    // faults are the same seed's as on a single server), two a minute on average, one at a time.
    const storms = new Random(seed).fork(0x9a1e);
    let stormAt = QUIET_START_MS;
    for (;;) {
      stormAt += Math.round((-Math.log(1 - storms.next()) * 60_000) / 2);
      const durationMs = stormDraw.durationMs(storms);
      if (stormAt >= endMs) break;
      faults.push({
        index: faults.length,
        kind: "certification-storm",
        target: stormDraw.target(storms),
        atMs: stormAt,
        durationMs,
        detail: {},
      });
      stormAt += durationMs + 1_000;
    }
  }
  faults.sort((a, b) => a.atMs - b.atMs || a.index - b.index);
  return { seed, minutes, topology, faults };
}

/** One line per fault, as the campaign prints and saves it. */
export function formatSchedule(schedule: Schedule): string {
  const lines = schedule.faults.map((fault) => {
    const detail = Object.entries(fault.detail)
      .map(([name, value]) => `${name}=${value}`)
      .join(" ");
    const lasting = fault.durationMs > 0 ? ` for ${(fault.durationMs / 1000).toFixed(1)}s` : "";
    return `  #${fault.index} +${(fault.atMs / 1000).toFixed(1)}s ${fault.kind} ${fault.target}${lasting}${detail ? ` (${detail})` : ""}`;
  });
  return [
    `seed ${schedule.seed}, ${schedule.minutes} min, ${schedule.topology}, ${schedule.faults.length} faults:`,
    ...lines,
  ].join("\n");
}

/** The schedule without the faults whose indexes are given: what the shrinker re-runs. */
export function withoutFaults(schedule: Schedule, removed: ReadonlySet<number>): Schedule {
  return { ...schedule, faults: schedule.faults.filter((fault) => !removed.has(fault.index)) };
}
