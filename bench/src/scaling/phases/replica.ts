import { setTimeout as sleep } from "node:timers/promises";
import { drainSideEffects } from "../../drain.ts";
import { forkLoad } from "../../run-load.ts";
import { seedWithTournament } from "../../seed.ts";
import { latency } from "../../stats.ts";
import type { ScalingRun } from "../context.ts";
import type { Snapshot } from "../counters.ts";
import { scalingWorkload } from "../metered-load.ts";
import { Replication } from "../replication.ts";
import { databaseName } from "../settings.ts";
import { describeWindow } from "../window.ts";
import { createLagProbeTable, startLagProbe } from "./replica-lag.ts";

/**
 * replica (private servers only): system A's shape on a primary with a durable binary log and one
 * replica. Per callback, what the binary log adds to the primary (Binlog_bytes_written, fsyncs,
 * CPU); and the replica's lag idle, under the first concurrency's load, and its catch-up after.
 */
export async function replicaPhase(run: ScalingRun): Promise<void> {
  const { settings, say } = run;
  say("==> replica: a primary with a durable binary log (ROW, sync_binlog=1) and one replica");
  const replication = await Replication.start(run.dir, run.started);
  try {
    await replication.connect();
    const primaryUrl = replication.primary.url(databaseName);
    const seeded = await seedWithTournament(primaryUrl, settings.SCALING_PLAYERS);
    const primaryDb = seeded.database;
    await createLagProbeTable(replication);
    const seedStarted = performance.now();
    while (!(await replication.caughtUp())) await sleep(50);
    const seedCatchUpMs = performance.now() - seedStarted;
    // From here `mariadb` is the primary's CPU and `replica` the replica's.
    run.groups.mysql = () => [replication.primary.pid ?? 0];
    run.groups.replica = [replication.replica.pid ?? 0];
    const meter = run.groups.meter(run.meterRedis, primaryDb.db);
    const system = await run.systems.start({ partitions: 32, workers: 1, database: primaryUrl });
    await sleep(3_000);

    const probe = startLagProbe(replication);
    await sleep(5_000);
    const idleLag = latency(probe.take());
    const concurrency = settings.SCALING_CONCURRENCY[0] ?? 16;
    let loadLag: number[] = [];
    let catchUpMs = 0;
    let start: Snapshot | undefined;
    let end: Snapshot | undefined;
    let drained: Snapshot | undefined;
    const summary = await forkLoad(
      scalingWorkload(settings, system.gatewayUrl, seeded.players, concurrency),
      {
        forked: (pid) => {
          run.groups.load = [pid];
        },
        measuring: async () => {
          probe.take(); // the warm-up's lags are neither idle nor measured load
          start = await meter.snap();
        },
        measured: async () => {
          end = await meter.snap();
          loadLag = probe.take();
          const endedAt = performance.now();
          while (!(await replication.caughtUp())) await sleep(20);
          catchUpMs = performance.now() - endedAt;
          await drainSideEffects(primaryDb.db);
          drained = await meter.snap();
        },
      },
    );
    if (!start || !end || !drained) throw new Error("replica run without its snapshots");
    const runResult = {
      throughput: summary.throughput,
      latencyMs: summary.latencyMs,
      statuses: summary.statuses,
      window: describeWindow(start, end, summary.requests),
      untilDrained: describeWindow(start, drained, summary.requests),
    };
    await probe.stop();
    run.results.replica = {
      concurrency,
      seedCatchUpMs: Math.round(seedCatchUpMs),
      idleLag,
      loadLag: latency(loadLag),
      catchUpAfterLoadMs: Math.round(catchUpMs),
      replicaThreads: await replication.threads(),
      run: runResult,
    };
    say(`  replica: ${JSON.stringify(run.results.replica)}`);
    await run.systems.stop(system);
    await primaryDb.close();
  } finally {
    await replication.close();
  }
}
