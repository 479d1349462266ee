import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { readDashboards } from "@wallet/infra/grafana-panels";
import { allExpressions, rulesDir } from "@wallet/infra/promql";
import type { SnapshotRun } from "@wallet/infra/snapshots/snapshot-run";
import { holdWalletLock } from "@wallet/ledger/testing/locks";
import type { AppProcess } from "@wallet/system-tests/harness/spawn-app";
import { callGateway, callWithRetry } from "@wallet/system-tests/harness/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authedPlayer } from "../harness/authed-player.ts";
import { FaultSystem, operatorToken } from "../harness/fault-system.ts";
import { callbacksAnswered, startPlay, stopPlay } from "../harness/platform-load.ts";
import { freePort } from "../servers/free-port.ts";
import { PrometheusServer } from "../servers/prometheus-server.ts";
import { AlertTimeline } from "./alert-timeline.ts";
import { emptyWhenHealthy } from "./empty-panels.ts";
import { observabilityEnv } from "./env.ts";
import { panelQueries, panelSeries } from "./panel-data.ts";

const repoRoot = resolve(import.meta.dirname, "../../..");
const dashboards = readDashboards(repoRoot);
const scrapeSeconds = 1;
/**
 * The simulator's pause between rounds: a steady load the machine carries without queueing (the suite
 * runs seven servers and five apps on two cores), so "healthy" means within the SLO.
 */
const playPauseMs = 100;
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
  let system: FaultSystem;
  let prometheus: PrometheusServer;
  let timeline: AlertTimeline;
  let sim: AppProcess;
  let api: AppProcess;
  const ports = { gateway: 0, workers: [0, 0], operatorApi: 0 };
  const workers: AppProcess[] = [];
  const playerIds: string[] = [];
  const phases: SnapshotRun["phases"] = [];
  let runStart = 0;
  let healthyStart = 0;
  let healthyEnd = 0;
  let restartAt = 0;

  const startWorker = async (slot: number, env: Record<string, string> = {}) => {
    workers[slot] = await system.startWorker({ METRICS_PORT: String(ports.workers[slot]), ...env });
  };
  const restartWorkers = async (env: Record<string, string> = {}) => {
    for (const [slot, worker] of workers.entries()) {
      await system.stop(worker);
      await startWorker(slot, env);
    }
  };
  const operatorCall = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${api.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };

  beforeAll(async () => {
    system = await FaultSystem.start({ deadlineMs: 2000 });
    const [gateway, operatorApi, ...workerPorts] = await Promise.all(
      Array.from({ length: 4 }, () => freePort()),
    );
    Object.assign(ports, { gateway, operatorApi, workers: workerPorts });
    for (const slot of ports.workers.keys()) await startWorker(slot);
    await system.startGateway({ METRICS_PORT: String(ports.gateway) });
    sim = await system.startPlatformSim();
    api = await system.startOperatorApi({
      METRICS_PORT: String(ports.operatorApi),
      PLATFORM_BASE_URL: `http://127.0.0.1:${sim.port}`,
    });
    prometheus = await PrometheusServer.start(system.dir, {
      jobs: [
        { job: "wallet-gateway", ports: [ports.gateway] },
        { job: "wallet-worker", ports: ports.workers },
        { job: "wallet-operator-api", ports: [ports.operatorApi] },
      ],
      ruleFiles: [join(repoRoot, rulesDir, "*.yml")],
      intervalSeconds: scrapeSeconds,
    });
    timeline = new AlertTimeline(prometheus);
    timeline.start();
    runStart = now();
    // Players as an operator makes them: created, given free bets and launched through the operator API.
    for (let index = 0; index < 12; index++) {
      const operatorId = 1 + (index % 2);
      const created = await operatorCall("POST", "/v1/players", {
        username: `obs-${index}`,
        currency: "EUR",
        balance: 5_000_000,
        maxbet: 5_000,
        operatorId,
      });
      expect(created.status).toBe(201);
      const userId = String(created.json.user_id);
      if (operatorId === 1) playerIds.push(userId);
      const grant = await operatorCall("POST", `/v1/players/${userId}/free-bets?operatorId=${operatorId}`, {
        count: 3,
      });
      expect(grant.status).toBe(201);
      const launched = await operatorCall("POST", `/v1/players/${userId}/launch?operatorId=${operatorId}`, {
        game: "crashGame",
        currency: "EUR",
        platform: "desktop",
        portalMode: "real",
      });
      expect(launched.status).toBe(200);
    }
  }, 180_000);

  afterAll(async () => {
    await timeline?.stop();
    await prometheus?.stop();
    await system?.shutdown();
  }, 60_000);

  it("scrapes the gateway, both workers and the operator API, and loads every alert rule", async () => {
    await expectEventually(async () => {
      const targets = await prometheus.targets();
      expect(targets.map((target) => `${target.job} ${target.health}`).sort()).toEqual([
        "wallet-gateway up",
        "wallet-operator-api up",
        "wallet-worker up",
        "wallet-worker up",
      ]);
    });
    expect((await prometheus.alertRuleNames()).sort()).toEqual(alertNamesInRules().sort());
  });

  it("under healthy load, with a worker restarted midway, no alert goes off", async () => {
    healthyStart = now();
    await startPlay(sim, playPauseMs);
    await callbacksAnswered(sim, 200);
    await operatorTraffic();
    await handMadeAnswers();
    await sleep(5_000);
    await operatorTraffic();
    await sleep(15_000);
    // A rolling restart of one worker: its counters start again from zero under the same target.
    restartAt = now();
    const [first] = workers;
    if (!first) throw new Error("no worker");
    await system.stop(first);
    await startWorker(0);
    await callbacksAnswered(sim, 200);
    await sleep(15_000);
    healthyEnd = now();
    const span = `${Math.round(healthyEnd - healthyStart)}s`;
    const [within] = await prometheus.query(
      `sum(increase(wallet_callback_duration_seconds_bucket{le="0.25"}[${span}])) / sum(increase(wallet_callback_duration_seconds_count[${span}]))`,
      healthyEnd,
    );
    console.log(
      `healthy run: ${((within?.points[0]?.[1] ?? 0) * 100).toFixed(2)}% of callbacks answered within 250 ms`,
    );
    phases.push({ name: "worker restarted", start: restartAt, end: restartAt + 5 });
    // The restarted target is down for a scrape or two: its ticket may be pending, never more.
    const sightings = timeline.during(healthyStart, healthyEnd);
    const unexpected = sightings.filter(
      (sighting) =>
        !(
          sighting.alertname === "WalletTargetDown" &&
          sighting.state === "pending" &&
          sighting.at >= restartAt
        ),
    );
    expect(
      unexpected.map(
        (sighting) =>
          `${sighting.alertname} ${sighting.state} at +${Math.round(sighting.at - healthyStart)}s`,
      ),
      `worker restarted at +${Math.round(restartAt - healthyStart)}s; ${await scrapeHealth(healthyStart, healthyEnd)}`,
    ).toEqual([]);
  }, 180_000);

  it("every panel of every dashboard shows data in the healthy run, or says why a healthy system leaves it empty", async () => {
    const window = { start: healthyStart, end: healthyEnd, scrapeSeconds };
    const empty: string[] = [];
    const undocumented: string[] = [];
    for (const dashboard of dashboards) {
      for (const panel of dashboard.panels) {
        const series = await panelSeries(prometheus, dashboard, panel, window);
        const reason = emptyWhenHealthy[panel.title];
        if (reason !== undefined && !panel.description.includes(reason)) {
          undocumented.push(`${dashboard.title} › ${panel.title}: its description must say "${reason}"`);
        }
        if (series.length === 0 && reason === undefined) {
          empty.push(
            `${dashboard.title} › ${panel.title}: ${panelQueries(dashboard, panel, window).join(" | ")}`,
          );
        }
      }
    }
    expect(undocumented).toEqual([]);
    expect(empty).toEqual([]);
  });

  it("rate() and increase() panels survive the restarted worker's counter reset", async () => {
    const window = { start: healthyStart, end: healthyEnd, scrapeSeconds };
    // No rate or count goes negative at the reset (what delta(), or a sum taken before rate(), would draw).
    const negative: string[] = [];
    for (const dashboard of dashboards) {
      for (const panel of dashboard.panels) {
        if (!panel.targets.every((target) => countingQuery.test(target.expr))) continue;
        for (const series of await panelSeries(prometheus, dashboard, panel, window)) {
          if (series.points.some(([, value]) => value < 0))
            negative.push(`${panel.title} › ${series.legend}`);
        }
      }
    }
    expect(negative).toEqual([]);
    // Across the reset, the workers' job count still adds up to what the gateway saw answered by a job.
    const span = `${Math.round(healthyEnd - healthyStart)}s`;
    const [jobs] = await prometheus.query(
      `sum(increase(wallet_ledger_job_duration_seconds_count[${span}]))`,
      healthyEnd,
    );
    const [answered] = await prometheus.query(
      `sum(increase(wallet_callback_duration_seconds_count{status=~"200|402|404|409"}[${span}]))`,
      healthyEnd,
    );
    const jobCount = jobs?.points[0]?.[1] ?? 0;
    const answeredCount = answered?.points[0]?.[1] ?? 0;
    expect(answeredCount).toBeGreaterThan(500);
    expect(Math.abs(jobCount - answeredCount) / answeredCount).toBeLessThan(0.05);
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

  it.each([
    // Relay on, consumers off: closes keep committing effects that nobody applies.
    {
      fault: "side-effect backlog",
      alerts: ["WalletOutboxStuck"],
      inject: () => restartWorkers({ SIDE_EFFECT_CONSUMERS: "off" }),
      heal: () => restartWorkers(),
    },
    // Every packet to and from MariaDB 1.5 s late: workers live, but no reply within the 2 s deadline.
    {
      fault: "reply deadline exceeded",
      alerts: ["WalletCallbackDeadlineExceeded"],
      inject: async () => system.dbProxy.setLatency(1_500),
      heal: async () => system.dbProxy.setLatency(0),
    },
    {
      fault: "MariaDB stopped",
      alerts: ["WalletMySQLDown"],
      inject: () => system.mariadb.stop(),
      heal: () => system.mariadb.restart(),
    },
    {
      fault: "Redis stopped",
      alerts: ["WalletRedisDown"],
      inject: () => system.redis.stop(),
      heal: () => system.redis.restart(),
    },
    {
      fault: "workers killed",
      alerts: ["WalletNoWorkerServing", "WalletTargetDown"],
      inject: () => Promise.all(workers.map((worker) => system.stop(worker, "SIGKILL"))).then(() => {}),
      heal: () => Promise.all(ports.workers.map((_, slot) => startWorker(slot))).then(() => {}),
    },
    {
      fault: "gateway killed",
      alerts: ["WalletGatewayDown", "WalletTargetDown"],
      inject: async () => {
        if (system.gateway) await system.stop(system.gateway, "SIGKILL");
      },
      heal: async () => {
        await system.startGateway({ METRICS_PORT: String(ports.gateway) });
      },
    },
  ])(
    `$fault: $alerts go ${observabilityEnv.OBSERVABILITY_UNTIL} from scraped data, and resolve once healed`,
    async ({ fault, alerts, inject, heal }) => {
      const state = observabilityEnv.OBSERVABILITY_UNTIL;
      const start = now();
      let healedAt = start;
      await inject();
      try {
        await timeline.reach(alerts, state, start, state === "firing" ? 420_000 : 150_000);
      } finally {
        // Healed even when the alert never came, so the next fault starts from a working system.
        healedAt = now();
        await heal();
      }
      await timeline.resolved(alerts, 150_000);
      phases.push({ name: fault, start, end: healedAt });
      const timings = [...timeline.timings(start, now())]
        .map(
          ([name, at]) =>
            `${name}: pending +${at.pending}s, firing ${at.firing === undefined ? "-" : `+${at.firing}s`}, last seen +${at.resolved}s`,
        )
        .join("; ");
      console.log(`${fault} (healed at +${Math.round(healedAt - start)}s): ${timings}`);
    },
    480_000,
  );

  it("every alert resolves once the faults are healed, and the run's panels are kept for snapshots", async () => {
    // Tickets that count events over 10 or 15 minutes stay open that long after the last one, by design.
    const slowToClose = ["WalletJobsStalled", "WalletJobsFailing", "WalletCloseRefused"];
    const others = alertNamesInRules().filter((name) => !slowToClose.includes(name));
    await timeline.resolved(others, 120_000);
    const file = observabilityEnv.OBSERVABILITY_SNAPSHOT_FILE;
    if (!file) return;
    const end = now();
    const window = { start: runStart, end, scrapeSeconds };
    const run: SnapshotRun = { start: runStart, end, stepSeconds: 0, phases, dashboards: [] };
    for (const dashboard of dashboards) {
      const panels = [];
      for (const panel of dashboard.panels) {
        const series = await panelSeries(prometheus, dashboard, panel, window);
        panels.push({ ...panel, emptyReason: emptyWhenHealthy[panel.title], series });
      }
      run.dashboards.push({ uid: dashboard.uid, title: dashboard.title, panels });
    }
    await writeFile(file, JSON.stringify(run));
  }, 240_000);

  function scrapeHealth(start: number, end: number): Promise<string> {
    return scrapeHealthOf(prometheus, start, end);
  }

  /** Answers the platform sees besides 200: 402, 404, 409, a refused signature and one 503 it then retries. */
  async function handMadeAnswers(): Promise<void> {
    const player = await authedPlayer(system, 1, 1_000n, { username: "obs-hand" });
    const front = { port: Number(new URL(system.walletUrl).port) };
    const bet = (amount: number, providerTxId = randomUUID()) => ({
      currency: "EUR",
      amount,
      provider: "platform-sim",
      provider_tx_id: providerTxId,
      game: "crashGame",
      action: "BET",
      action_id: `obs-round-${randomUUID()}`,
      session_token: player.sessionToken,
      platform: "desktop",
      user_id: player.userId,
      attributes: [],
    });
    expect((await callGateway(front, "/withdraw", bet(5_000))).status).toBe(402);
    const first = bet(100);
    expect((await callGateway(front, "/withdraw", first)).status).toBe(200);
    expect((await callGateway(front, "/withdraw", { ...first, amount: 200 })).status).toBe(409);
    const unknownSession = { session_token: "obs-no-such-session", currency: "EUR", user_id: player.userId };
    expect((await callGateway(front, "/balance", unknownSession)).status).toBe(404);
    expect((await callGateway(front, "/withdraw", bet(100), { signature: "0".repeat(64) })).status).toBe(401);
    // One 503: the player's wallet row held by another transaction past the deadline while one bet
    // waits for it (the simulator paused, so nothing else waits); the platform's resend then lands.
    await stopPlay(sim);
    const held = bet(100);
    const lock = await holdWalletLock(system.ledger, player.playerId);
    const refused = await callGateway(front, "/withdraw", held).finally(() => lock.release());
    expect(refused.status).toBe(503);
    const retried = await callWithRetry([front], "/withdraw", held);
    expect(retried.status).toBe(200);
    await startPlay(sim, playPauseMs);
  }

  /**
   * An operator's back office at work: a catalog refresh (a platform call), a launch (another), reads
   * and a 404. A label set appears with its first request, so rate() only sees it from the next one:
   * called twice, some seconds apart, as a back office would over minutes.
   */
  async function operatorTraffic(): Promise<void> {
    for (const operatorId of [1, 2]) {
      expect((await operatorCall("POST", `/v1/games/cache/invalidate?operatorId=${operatorId}`)).status).toBe(
        204,
      );
      expect((await operatorCall("GET", `/v1/games?operatorId=${operatorId}`)).status).toBe(200);
      expect((await operatorCall("GET", `/v1/refused-closes?operatorId=${operatorId}`)).status).toBe(200);
    }
    const [userId] = playerIds;
    const launched = await operatorCall("POST", `/v1/players/${userId}/launch?operatorId=1`, {
      game: "crashGame",
      currency: "EUR",
      platform: "desktop",
      portalMode: "real",
    });
    expect(launched.status).toBe(200);
    expect((await operatorCall("GET", "/v1/players/obs-no-such-player?operatorId=1")).status).toBe(404);
  }
});

/** Each job's slowest scrape and whether any scrape failed in the window: why an `up`-based alert went off. */
async function scrapeHealthOf(prometheus: PrometheusServer, start: number, end: number): Promise<string> {
  const span = `${Math.max(1, Math.round(end - start))}s`;
  const slowest = await prometheus.query(
    `max by (job) (max_over_time(scrape_duration_seconds[${span}]))`,
    end,
  );
  const down = await prometheus.query(`min by (job) (min_over_time(up[${span}]))`, end);
  return [
    ...slowest.map((series) => `${series.metric.job} slowest scrape ${series.points[0]?.[1].toFixed(3)} s`),
    ...down.map((series) => `${series.metric.job} min up ${series.points[0]?.[1]}`),
  ].join(", ");
}

/** `sum by (…) (rate(…))`, `max(increase(…))`: a query that draws a rate or a count, never below 0. */
const countingQuery = /^\s*(?:(?:sum|max|min)\s*(?:by\s*\([^)]*\)\s*)?\(\s*)?(?:rate|increase)\(/;

function alertNamesInRules(): string[] {
  return allExpressions(repoRoot)
    .expressions.map(({ where }) => /› alert (\w+)$/.exec(where)?.[1])
    .filter((name): name is string => name !== undefined);
}

async function expectEventually(check: () => Promise<void>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}
