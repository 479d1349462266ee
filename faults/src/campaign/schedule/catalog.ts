import type { Random } from "./random.ts";

/**
 * Every fault a campaign draws from, each with what it holds (a process, a server, a link: two faults
 * on one resource never overlap, any others may) and how its parameters are drawn. The injectors are
 * in `../injectors/`; docs/reliability.md ("The campaign") lists them with what each one proves.
 */
export const processes = ["gateway", "worker", "operator-api"] as const;
/** The links the fault proxies sit on: the platform to the gateway, every app to MariaDB, to Redis. */
export const links = ["platform-gateway", "apps-mariadb", "apps-redis"] as const;

export type FaultKind =
  | "sigkill"
  | "sigstop"
  | "redis-restart-empty"
  | "mariadb-kill"
  | "mariadb-freeze"
  | "redis-freeze"
  | "latency"
  | "reset"
  | "partition"
  | "clock-skew"
  | "deadlock-storm"
  | "hostile"
  | "heavy-close"
  | "retention"
  /** Replicated topology only: the primary killed, the semi-synchronous replica promoted, the old one back fenced. */
  | "failover"
  /** Galera only: the players' wallet rows updated through the third node, conflicting with both writers. */
  | "certification-storm";

export interface ScheduledFault {
  /** Its place in the schedule: what the shrinker removes by. */
  index: number;
  kind: FaultKind;
  /** The process, server or link it hits. */
  target: string;
  /** From the start of the load. */
  atMs: number;
  /** How long it lasts before it is healed (0: a single act, e.g. a burst of requests). */
  durationMs: number;
  /** Its drawn parameters (latency, skew, requests, entries). */
  detail: Record<string, number>;
}

interface Draw {
  kind: FaultKind;
  /** How often it is drawn, relative to the others. */
  weight: number;
  target(random: Random): string;
  /** The resource it holds while it lasts. */
  holds(target: string): string;
  durationMs(random: Random): number;
  detail(random: Random): Record<string, number>;
}

const none = () => ({});
const onProcess = (target: string) => target;
const server = (name: string) => () => name;

export const catalog: readonly Draw[] = [
  {
    kind: "sigkill",
    weight: 3,
    target: (random) => random.pick(processes),
    holds: onProcess,
    durationMs: (random) => random.int(300, 4_000),
    detail: none,
  },
  {
    kind: "sigstop",
    weight: 2,
    target: (random) => random.pick(processes),
    holds: onProcess,
    durationMs: (random) => random.int(500, 5_000),
    detail: none,
  },
  {
    kind: "redis-restart-empty",
    weight: 1,
    target: server("redis"),
    holds: server("redis"),
    durationMs: (random) => random.int(200, 3_000),
    detail: none,
  },
  {
    kind: "mariadb-kill",
    weight: 1,
    target: server("mariadb"),
    holds: server("mariadb"),
    durationMs: (random) => random.int(200, 3_000),
    detail: none,
  },
  {
    kind: "mariadb-freeze",
    weight: 1,
    target: server("mariadb"),
    holds: server("mariadb"),
    durationMs: (random) => random.int(500, 4_000),
    detail: none,
  },
  {
    kind: "redis-freeze",
    weight: 1,
    target: server("redis"),
    holds: server("redis"),
    durationMs: (random) => random.int(500, 4_000),
    detail: none,
  },
  {
    kind: "latency",
    weight: 2,
    target: (random) => random.pick(links),
    holds: (target) => `link ${target}`,
    durationMs: (random) => random.int(2_000, 8_000),
    detail: (random) => ({ ms: random.int(20, 600) }),
  },
  {
    kind: "reset",
    weight: 2,
    target: (random) => random.pick(links),
    holds: (target) => `link ${target}`,
    durationMs: (random) => random.int(0, 3_000),
    detail: (random) => ({ everyMs: random.int(200, 1_000) }),
  },
  {
    kind: "partition",
    weight: 2,
    target: (random) => random.pick(links),
    holds: (target) => `link ${target}`,
    durationMs: (random) => random.int(500, 5_000),
    detail: none,
  },
  {
    kind: "clock-skew",
    weight: 1,
    target: (random) => random.pick(["gateway", "worker"] as const),
    holds: onProcess,
    durationMs: (random) => random.int(4_000, 12_000),
    detail: (random) => ({ skewMs: random.pick([-1, 1]) * random.int(5_000, 60_000) }),
  },
  {
    kind: "deadlock-storm",
    weight: 1,
    target: server("ledger rows"),
    holds: server("ledger rows"),
    durationMs: (random) => random.int(2_000, 8_000),
    detail: (random) => ({ holdMs: random.int(10, 60) }),
  },
  {
    kind: "hostile",
    weight: 1,
    target: server("gateway input"),
    holds: server("gateway input"),
    durationMs: () => 0,
    detail: (random) => ({ requests: random.int(50, 400), seed: random.int(1, 2 ** 30) }),
  },
  {
    kind: "heavy-close",
    weight: 1,
    target: server("gateway input"),
    holds: server("heavy close"),
    durationMs: () => 0,
    detail: (random) => ({ entries: random.int(20_000, 200_000) }),
  },
  {
    kind: "retention",
    weight: 1,
    target: server("ledger"),
    holds: server("retention"),
    durationMs: () => 0,
    detail: none,
  },
];

/**
 * The replicated topology's one failover (a replica is promoted once): the primary SIGKILLed, the
 * replica promoted and the address moved; dead for the fault's duration, then back read-only with the
 * address pointed at it for `returnMs` (a misdirected failover tool), then at the new primary again.
 */
export const failoverDraw: Draw = {
  kind: "failover",
  weight: 0,
  target: server("mariadb"),
  holds: server("mariadb"),
  durationMs: (random) => random.int(2_000, 6_000),
  detail: (random) => ({ returnMs: random.int(1_000, 4_000) }),
};

/**
 * The Galera topology's storms (`certificationStorm`, faults/src/faults/galera/): the players' wallet
 * rows updated again and again through the node no worker writes through, for a few seconds: each
 * update applied on the written nodes aborts a wallet transaction holding the row there, in the
 * middle of its packet as often as not (a brute-force abort), or fails one at certification.
 */
export const stormDraw: Draw = {
  kind: "certification-storm",
  weight: 0,
  target: server("galera3"),
  holds: server("galera3"),
  durationMs: (random) => random.int(3_000, 8_000),
  detail: none,
};

export function drawFault(random: Random): Draw {
  const total = catalog.reduce((sum, draw) => sum + draw.weight, 0);
  let point = random.next() * total;
  for (const draw of catalog) {
    point -= draw.weight;
    if (point < 0) return draw;
  }
  return catalog[catalog.length - 1] as Draw;
}
