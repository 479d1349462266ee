import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { readDashboards } from "@wallet/infra/grafana-panels";
import { allExpressions, metricNamesIn } from "@wallet/infra/promql";
import type { SnapshotRun } from "@wallet/infra/snapshots/snapshot-run";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callbacksAnswered, startPlay } from "../harness/platform-load.ts";
import { emptyWhenHealthy } from "./empty-panels.ts";
import { observabilityEnv } from "./env.ts";
import { ObservedSystem } from "./observed-system.ts";
import { panelQueries, panelSeries, recordRun } from "./panel-data.ts";
import { runbookFaults, slowToClose } from "./runbook-faults.ts";
import { handMadeAnswers, operatorPlayers, operatorTraffic, playPauseMs } from "./traffic.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const dashboards = readDashboards(repoRoot);
const scrapeSeconds = 1;
const now = () => Date.now() / 1000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The dashboards and alert rules against a real Prometheus scraping the running system: a gateway,
 * two workers and the operator API on servers of the suite's own, under the platform simulator's
 * crash rounds. Every panel must show data (or say in its description why a healthy system leaves
 * it empty), no alert may go off while the system is healthy, and each fault the runbook names must
 * bring its paging alert up from real scraped data and let it go again once healed.
 */
describe("observability against a real Prometheus", () => {
  let observed: ObservedSystem;
  const phases: SnapshotRun["phases"] = [];
  let runStart = 0;
  let healthy = { start: 0, end: 0, scrapeSeconds };
  let restartAt = 0;

  beforeAll(async () => {
    observed = await ObservedSystem.start();
    await operatorPlayers(observed, 12);
    // Warm, then watched: the rounds run before Prometheus starts (ObservedSystem.watch says why).
    await startPlay(observed.sim, playPauseMs);
    await callbacksAnswered(observed.sim, 300, 60_000);
    await observed.watch(repoRoot, scrapeSeconds);
    runStart = now();
  }, 180_000);

  afterAll(async () => {
    // Kept whatever the outcome: a failed run's pictures are the first thing to look at.
    const file = observabilityEnv.OBSERVABILITY_SNAPSHOT_FILE;
    if (file && observed && runStart > 0) {
      const window = { start: runStart, end: now(), scrapeSeconds };
      await recordRun(observed.prometheus, dashboards, window, phases, emptyWhenHealthy)
        .then((run) => writeFile(file, JSON.stringify(run)))
        .catch((error) => console.error("snapshot not kept:", error));
    }
    await observed?.stop();
  }, 120_000);

  it("scrapes the gateway, both workers and the operator API, and loads every alert rule", async () => {
    const { prometheus, timeline } = observed;
    await vi.waitFor(
      async () => {
        const targets = await prometheus.targets();
        expect(targets.map((target) => `${target.job} ${target.health}`).sort()).toEqual([
          "mysql up",
          "mysql up",
          "wallet-gateway up",
          "wallet-operator-api up",
          "wallet-worker up",
          "wallet-worker up",
        ]);
      },
      { timeout: 30_000, interval: 500 },
    );
    expect((await prometheus.alertRuleNames()).sort()).toEqual(alertNamesInRules().sort());
    // Before its first scrapes Prometheus sees no gateway and no worker: those two go pending for a
    // moment at its start (as after any Prometheus restart), and must clear once the targets are up.
    await timeline.resolved([], 30_000);
  });

  it("under healthy load, with a worker restarted midway, no alert goes off", async () => {
    const { prometheus, timeline, sim, system, workers } = observed;
    const start = now();
    await callbacksAnswered(sim, 200);
    await operatorTraffic(observed);
    await handMadeAnswers(observed);
    await sleep(5_000);
    await operatorTraffic(observed);
    await sleep(15_000);
    // A rolling restart of one worker: its counters start again from zero under the same target.
    restartAt = now();
    const [first] = workers;
    if (!first) throw new Error("no worker");
    await system.stop(first);
    await observed.startWorker(0);
    await callbacksAnswered(sim, 200);
    await sleep(15_000);
    healthy = { start, end: now(), scrapeSeconds };
    phases.push({ name: "worker restarted", start: restartAt, end: restartAt + 5 });

    const span = `${Math.round(healthy.end - healthy.start)}s`;
    const [within] = await prometheus.query(
      `sum(increase(wallet_callback_duration_seconds_bucket{le="0.25"}[${span}])) / sum(increase(wallet_callback_duration_seconds_count[${span}]))`,
      healthy.end,
    );
    console.log(
      `healthy run: ${((within?.points[0]?.[1] ?? 0) * 100).toFixed(2)}% of callbacks within 250 ms`,
    );
    // The primary's commits the replica acknowledged, and those it did not (a fallback on its own,
    // under load), with the average wait: what semi-sync costs each commit here. Only the writable
    // server's: the replica's own master side counts every transaction it applies as unacknowledged.
    const onPrimary = (metric: string) =>
      `sum(increase(${metric}[${span}]) and on (instance) mysql_global_variables_read_only == 0)`;
    const value = async (expr: string) =>
      (await prometheus.query(expr, healthy.end))[0]?.points[0]?.[1] ?? Number.NaN;
    const acknowledged = await value(onPrimary("mysql_global_status_rpl_semi_sync_master_yes_tx"));
    const unacknowledged = await value(onPrimary("mysql_global_status_rpl_semi_sync_master_no_tx"));
    const waitMicros = await value(
      "max(mysql_global_status_rpl_semi_sync_master_tx_avg_wait_time and on (instance) mysql_global_variables_read_only == 0)",
    );
    console.log(
      `healthy run: the primary's commits ${Math.round(acknowledged)} acknowledged by the replica, ${Math.round(unacknowledged)} not; ${(waitMicros / 1000).toFixed(1)} ms average wait for an acknowledgement`,
    );
    // The platform's whole repertoire was played, free bets included (the reconciliation alert must
    // stay quiet on them too), and the answers besides 200.
    const byAction = await prometheus.query(
      `sum by (action) (increase(wallet_callback_duration_seconds_count[${span}])) > 0`,
      healthy.end,
    );
    expect(byAction.map((series) => series.metric.action)).toEqual(
      expect.arrayContaining(["BET", "WIN", "ROLL_BACK", "FREE_BET", "CLOSE_ROUND"]),
    );
    // Statuses answered once appear with their first value, which increase() cannot see: read as present.
    // Above 0: the gateway creates its 503 series at 0 at start, and those alone prove no 503.
    const answers = await prometheus.query(
      `sum by (endpoint, action, status) (max_over_time(wallet_callback_duration_seconds_count{status!="200"}[${span}])) > 0`,
      healthy.end,
    );
    const described = answers.map(({ metric, points }) => {
      return `${metric.endpoint} ${metric.action} ${metric.status} ×${points[0]?.[1]}`;
    });
    console.log(`answers besides 200: ${described.join(", ")}`);
    expect([...new Set(answers.map((series) => series.metric.status))]).toEqual(
      expect.arrayContaining(["401", "402", "404", "409", "503"]),
    );

    // The restarted target is down for a scrape or two: its ticket may be pending, never more.
    const unexpected = timeline
      .during(healthy.start, healthy.end)
      .filter(
        ({ alertname, state, at }) =>
          !(alertname === "WalletTargetDown" && state === "pending" && at >= restartAt),
      )
      .map(({ alertname, state, at }) => `${alertname} ${state} at +${Math.round(at - healthy.start)}s`);
    const context = `worker restarted at +${Math.round(restartAt - healthy.start)}s; ${await prometheus.scrapeHealth(healthy.start, healthy.end)}`;
    expect(unexpected, context).toEqual([]);
  }, 180_000);

  it("every panel of every dashboard shows data in the healthy run, or says why a healthy system leaves it empty", async () => {
    const empty: string[] = [];
    const undocumented: string[] = [];
    for (const dashboard of dashboards) {
      for (const panel of dashboard.panels) {
        const series = await panelSeries(observed.prometheus, dashboard, panel, healthy);
        const reason = emptyWhenHealthy[panel.title];
        if (reason !== undefined && !panel.description.includes(reason)) {
          undocumented.push(`${dashboard.title} › ${panel.title}: its description must say "${reason}"`);
        }
        if (series.length === 0 && reason === undefined) {
          empty.push(
            `${dashboard.title} › ${panel.title}: ${panelQueries(dashboard, panel, healthy).join(" | ")}`,
          );
        }
      }
    }
    expect(undocumented).toEqual([]);
    expect(empty).toEqual([]);
  });

  it("the rules and panels read only series the real mysqld_exporter serves, or their MySQL 8.4 spellings", async () => {
    const served = await observed.prometheus.query(
      'group by (__name__) ({__name__=~"mysql_.+"})',
      healthy.end,
    );
    const names = new Set(served.map((series) => series.metric.__name__));
    const used = new Set(
      allExpressions(repoRoot).expressions.flatMap(({ expr }) =>
        metricNamesIn(expr).filter((name) => name.startsWith("mysql_")),
      ),
    );
    expect(used.size).toBeGreaterThan(15);
    // Exactly those: a name misspelt, or one this exporter serves after all, fails here.
    expect([...used].filter((name) => !names.has(name)).sort()).toEqual(mysql84Only);
  });

  it("rate() and increase() panels survive the restarted worker's counter reset", async () => {
    const { prometheus } = observed;
    // No rate or count goes negative at the reset (what delta(), or a sum taken before rate(), would draw).
    const negative: string[] = [];
    for (const dashboard of dashboards) {
      for (const panel of dashboard.panels) {
        if (!panel.targets.every((target) => countingQuery.test(target.expr))) continue;
        for (const series of await panelSeries(prometheus, dashboard, panel, healthy)) {
          if (series.points.some(([, value]) => value < 0))
            negative.push(`${panel.title} › ${series.legend}`);
        }
      }
    }
    expect(negative).toEqual([]);
    // Across the reset, the workers' job count still adds up to what the gateway saw answered by a job.
    const span = `${Math.round(healthy.end - healthy.start)}s`;
    const total = async (expr: string) => (await prometheus.query(expr, healthy.end))[0]?.points[0]?.[1] ?? 0;
    const jobs = await total(`sum(increase(wallet_ledger_job_duration_seconds_count[${span}]))`);
    const answered = await total(
      `sum(increase(wallet_callback_duration_seconds_count{status=~"200|402|404|409"}[${span}]))`,
    );
    expect(answered).toBeGreaterThan(500);
    expect(Math.abs(jobs - answered) / answered).toBeLessThan(0.05);
    // And the throughput line does not spike where the worker restarted.
    const [rate] = await prometheus.queryRange(
      "sum(rate(wallet_ledger_job_duration_seconds_count[4s]))",
      restartAt - 10,
      restartAt + 15,
      1,
    );
    const values = (rate?.points ?? []).map(([, value]) => value).sort((a, b) => a - b);
    const median = values[Math.floor(values.length / 2)] ?? 0;
    expect(median).toBeGreaterThan(0);
    expect(Math.max(...values)).toBeLessThan(3 * median);
  });

  it.each(
    runbookFaults.map((fault) => ({ ...fault, state: fault.until ?? observabilityEnv.OBSERVABILITY_UNTIL })),
  )(
    "$fault: $alerts go $state from scraped data, and resolve once healed",
    async ({ fault, alerts, state, inject, heal }) => {
      const { timeline } = observed;
      const start = now();
      let healedAt = start;
      await inject(observed);
      try {
        await timeline.reach(alerts, state, start, state === "firing" ? 420_000 : 150_000);
      } finally {
        // Healed even when the alert never came, so the next fault starts from a working system.
        healedAt = now();
        await heal(observed);
      }
      await timeline.resolved(alerts, 150_000);
      phases.push({ name: fault, start, end: healedAt });
      const timings = [...timeline.timings(start, now())].map(([name, at]) => {
        const firing = at.firing === undefined ? "-" : `+${at.firing}s`;
        return `${name}: pending +${at.pending}s, firing ${firing}, last seen +${at.lastSeen}s`;
      });
      console.log(`${fault} (healed at +${Math.round(healedAt - start)}s): ${timings.join("; ")}`);
    },
    480_000,
  );

  it("every alert resolves once the faults are healed (but those that count over minutes, by design)", async () => {
    const others = alertNamesInRules().filter((name) => !slowToClose.includes(name));
    await observed.timeline.resolved(others, 120_000);
  }, 240_000);
});

/**
 * What MySQL 8.0.26+ names the semi-sync variables (the `rpl_semi_sync_source` plugin) and MySQL 8.4's
 * SHOW REPLICA STATUS its columns: the rules and panels read them beside MariaDB's, which the suite runs.
 */
const mysql84Only = [
  "mysql_global_status_rpl_semi_sync_source_clients",
  "mysql_global_status_rpl_semi_sync_source_no_tx",
  "mysql_global_status_rpl_semi_sync_source_status",
  "mysql_global_status_rpl_semi_sync_source_yes_tx",
  "mysql_global_variables_rpl_semi_sync_source_enabled",
  "mysql_slave_status_replica_io_running",
  "mysql_slave_status_replica_sql_running",
  "mysql_slave_status_seconds_behind_source",
];

/** `sum by (…) (rate(…))`, `max(increase(…))`: a query that draws a rate or a count, never below 0. */
const countingQuery = /^\s*(?:(?:sum|max|min)\s*(?:by\s*\([^)]*\)\s*)?\(\s*)?(?:rate|increase)\(/;

function alertNamesInRules(): string[] {
  return allExpressions(repoRoot)
    .expressions.map(({ where }) => /› alert (\w+)$/.exec(where)?.[1])
    .filter((name): name is string => name !== undefined);
}
