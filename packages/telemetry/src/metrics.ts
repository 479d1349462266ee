import { type Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { bounded, DEPENDENCY_CHECK_TIMEOUT_MS } from "./bounded-read.ts";

/**
 * Latency buckets in seconds: fine below 5 ms (where a healthy callback lives) and reaching past
 * the callback deadline (2.5 s by default), so both the fast path and the timeouts are visible.
 */
export const latencyBuckets = [
  0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 5,
];

/** Coarser buckets for series multiplied by a label with many values (one per partition). */
export const waitBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The buckets with the deadline itself added, so "answered just before the deadline" is a bucket. */
export function bucketsWithDeadline(deadlineMs: number): number[] {
  return [...new Set([...latencyBuckets, deadlineMs / 1000])].sort((a, b) => a - b);
}

/** A service's registry, with prom-client's process metrics (CPU, memory, event-loop lag, GC). */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export type Dependency = "mysql" | "redis";

/** `wallet_dependency_up` and `wallet_dependency_check_seconds`: the same two series in every service. */
export function dependencyMetrics(registry: Registry) {
  const up = new Gauge({
    name: "wallet_dependency_up",
    help: "1 when the last check of the dependency succeeded, 0 when it failed",
    labelNames: ["dependency"] as const,
    registers: [registry],
  });
  const checkSeconds = new Histogram({
    name: "wallet_dependency_check_seconds",
    help: "Round trip of the periodic dependency check (MySQL SELECT 1, Redis TIME)",
    labelNames: ["dependency"] as const,
    buckets: latencyBuckets,
    registers: [registry],
  });
  const last = new Map<Dependency, boolean>();
  return {
    /**
     * Runs a check, records its outcome and time, and passes its result or error on. A check that
     * has not answered within `timeoutMs` failed: a client that queues commands while its server is
     * down would otherwise leave the last "up" standing for the whole outage.
     */
    async check<T>(
      dependency: Dependency,
      run: () => Promise<T>,
      timeoutMs = DEPENDENCY_CHECK_TIMEOUT_MS,
    ): Promise<T> {
      const stop = checkSeconds.startTimer({ dependency });
      try {
        const result = await bounded(run(), timeoutMs, `${dependency} check`);
        up.set({ dependency }, 1);
        last.set(dependency, true);
        return result;
      } catch (error) {
        up.set({ dependency }, 0);
        last.set(dependency, false);
        throw error;
      } finally {
        stop();
      }
    },
    /**
     * Ready when the last periodic check of every one of `dependencies` succeeded: a probe reads it
     * without touching MySQL or Redis itself, so probes cannot add load to a struggling dependency.
     */
    readiness(dependencies: Dependency[]): Readiness {
      const checks = Object.fromEntries(
        dependencies.map((dependency) => {
          const state = last.get(dependency);
          return [dependency, state === undefined ? "unknown" : state ? "ok" : "down"];
        }),
      );
      return { ready: Object.values(checks).every((state) => state === "ok"), checks };
    },
  };
}

/**
 * `wallet_db_fenced`, read at scrape time: 1 while the process refuses every database statement, its
 * server found read-only (`@wallet/ledger`'s fence). The worker and the operator API export it.
 */
export function databaseFencedGauge(registers: Registry[], fenced: () => boolean): Gauge {
  return new Gauge({
    name: "wallet_db_fenced",
    help: "1 while every database statement is refused (503): the server was found read-only (a replica, a fenced or demoted primary)",
    registers,
    collect() {
      this.set(fenced() ? 1 : 0);
    },
  });
}

/**
 * `wallet_db_session_refused`, read at scrape time: 1 while the process's new database connections are
 * refused because their session cannot be set as the ledger needs (`@wallet/ledger`'s session gate:
 * isolation, lock wait, sql_mode, time zone, binary log format, TiDB's CHECK constraints); every
 * statement that needs one is a 503. The worker and the operator API export it.
 */
export function databaseSessionRefusedGauge(registers: Registry[], refused: () => boolean): Gauge {
  return new Gauge({
    name: "wallet_db_session_refused",
    help: "1 while new database connections are refused (503): their session cannot be set as the ledger needs (the log says what to fix)",
    registers,
    collect() {
      this.set(refused() ? 1 : 0);
    },
  });
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, unknown>;
}
export type DependencyMetrics = ReturnType<typeof dependencyMetrics>;

/**
 * A counter with its label sets at 0 from the start: a series that first appears already at 1
 * makes `increase()` read 0 for that first failure, and an alert on it would never fire.
 */
export function zeroed<T extends string>(
  counter: Counter<T>,
  labelSets: Array<Record<T, string>>,
): Counter<T> {
  for (const labels of labelSets) counter.inc(labels, 0);
  return counter;
}
