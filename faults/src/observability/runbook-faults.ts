import { asRoot } from "../servers/mariadb-server.ts";
import type { ObservedSystem } from "./observed-system.ts";

/** A fault the runbook names, the alerts it must bring up, and how it is injected and healed. */
export interface RunbookFault {
  fault: string;
  alerts: string[];
  /**
   * Held until its alerts fire whatever `OBSERVABILITY_UNTIL` says: for the alert whose firing (and
   * resolving) the suite must show on every run.
   */
  until?: "firing";
  inject: (observed: ObservedSystem) => Promise<void>;
  heal: (observed: ObservedSystem) => Promise<void>;
}

/** Runs a statement as root on the replica (replication's own commands are the operator's, not the apps'). */
const onReplica = (observed: ObservedSystem, sql: string) =>
  asRoot(observed.replication.replica, async (connection) => {
    await connection.query(sql);
  });

/**
 * In this order: each later fault also brings up the deadline alert, so the one that must prove it
 * comes before them; the others wait only for their own alerts to close.
 */
export const runbookFaults: RunbookFault[] = [
  // The only replica stops replicating (as a replica restarted, crashed or cut off would): the next
  // commit waits the 1 s semi-sync timeout, then the primary goes on asynchronously. Held until the
  // page fires on every run; START SLAVE reconnects it, it catches up and semi-sync is back.
  {
    fault: "replica stops acknowledging (semi-sync falls back to asynchronous)",
    alerts: ["WalletDbSemiSyncOff"],
    until: "firing",
    inject: (observed) => onReplica(observed, "STOP SLAVE"),
    heal: (observed) => onReplica(observed, "START SLAVE"),
  },
  // Relay on, consumers off: closes keep committing effects that nobody applies.
  {
    fault: "side-effect backlog",
    alerts: ["WalletOutboxStuck"],
    inject: (observed) => observed.restartWorkers({ SIDE_EFFECT_CONSUMERS: "off" }),
    heal: (observed) => observed.restartWorkers(),
  },
  // Every packet to and from MariaDB 1.5 s late: workers live, but no reply within the 2 s deadline.
  {
    fault: "reply deadline exceeded",
    alerts: ["WalletCallbackDeadlineExceeded"],
    inject: async ({ system }) => system.dbProxy.setLatency(1_500),
    heal: async ({ system }) => system.dbProxy.setLatency(0),
  },
  {
    fault: "MariaDB stopped",
    alerts: ["WalletMySQLDown"],
    inject: ({ system }) => system.mariadb.stop(),
    heal: ({ system }) => system.mariadb.restart(),
  },
  {
    fault: "Redis stopped",
    alerts: ["WalletRedisDown"],
    inject: ({ system }) => system.redis.stop(),
    heal: ({ system }) => system.redis.restart(),
  },
  {
    fault: "workers killed",
    alerts: ["WalletNoWorkerServing", "WalletTargetDown"],
    inject: async ({ system, workers }) => {
      await Promise.all(workers.map((worker) => system.stop(worker, "SIGKILL")));
    },
    heal: async (observed) => {
      await Promise.all(observed.workers.map((_, slot) => observed.startWorker(slot)));
    },
  },
  {
    fault: "gateway killed",
    alerts: ["WalletGatewayDown", "WalletTargetDown"],
    inject: async ({ system }) => {
      if (system.gateway) await system.stop(system.gateway, "SIGKILL");
    },
    heal: (observed) => observed.startGateway(),
  },
];

/**
 * Alerts that stay open after their fault by design: tickets that count events over 10 or 15 minutes,
 * and burn-rate alerts until their short window (5 or 30 minutes) has forgotten the outage.
 */
export const slowToClose = [
  "WalletJobsStalled",
  "WalletJobsFailing",
  "WalletCloseRefused",
  "WalletCallbackErrorBudgetFastBurn",
  "WalletCallbackErrorBudgetSlowBurn",
  "WalletCallbackLatencyBudgetFastBurn",
  "WalletCallbackLatencyBudgetSlowBurn",
];
