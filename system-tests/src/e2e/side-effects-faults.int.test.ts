import { redisNames } from "@wallet/contracts/jobs";
import { closeRoundEventId, roundReportEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { betBody, closeRoundBody } from "@wallet/ledger/testing/callback-bodies";
import { countRows } from "@wallet/ledger/testing/ledger-reads";
import { createRedis } from "@wallet/queue/redis";
import { jobIdFor, reportingQueueName, sideEffectQueueName } from "@wallet/queue/side-effect-queues";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import { describe, expect, inject, it } from "vitest";
import { testCrashPointEnv } from "../harness/env.ts";
import {
  authedPlayer,
  callGateway,
  callWithRetry,
  eventually,
  scrapeOf,
  type TestSystem,
  useTestSystem,
} from "../harness/system.ts";

// One system per scenario: each has its own database and Redis prefix.
const systems = {
  beforePublish: useTestSystem(),
  afterPublish: useTestSystem(),
  inConsumer: useTestSystem(),
  redisLoss: useTestSystem(),
  failedForGood: useTestSystem(),
};

async function allApplied(system: TestSystem, roundId: string) {
  return eventually(
    async () => {
      const status = await roundStatus({ ctx: system.ledger.ctx, input: { tenantId: 1, roundId } });
      const states = Object.values(status?.side_effects ?? {});
      return states.length === 4 && states.every((state) => state === "applied") ? status : undefined;
    },
    20_000,
    `side effects of ${roundId}`,
  );
}

/** Each effect exactly once for a round where one player staked 5000: 5 points, one rg round, one report. */
async function expectEachEffectOnce(system: TestSystem, roundId: string, userId: string) {
  const summary = await playerSummary({ ctx: system.ledger.ctx, input: { tenantId: 1, userId } });
  expect(summary?.loyalty_points).toBe(5n);
  expect(summary?.rg.map((day) => [day.staked, day.rounds])).toEqual([[5_000n, 1]]);
  expect(await countRows(system.ledger, "side_effect_receipts")).toBe(4);
  expect(await countRows(system.ledger, "round_reports")).toBe(1);
  const redis = createRedis({ url: inject("redisUrl") }, "fault-test");
  const reporting = new Queue(reportingQueueName, {
    connection: redis,
    prefix: redisNames(system.prefix).bullPrefix(reportingQueueName),
  });
  try {
    const job = await reporting.getJob(jobIdFor(roundReportEventId(1, roundId)));
    expect(job?.data).toMatchObject({ eventId: roundReportEventId(1, roundId), betCount: 1 });
  } finally {
    await reporting.close();
    redis.disconnect();
  }
  expect(closeRoundEventId(1, roundId)).toBe(`close-round:1:${roundId}`);
}

/**
 * A round bet and closed through a gateway while the only worker runs no consumers: its four
 * events are published (their jobs wait on the queues), then that worker stops.
 */
async function closedAndPublished(system: TestSystem, round: string) {
  const relayOnly = await system.startWorker({ SIDE_EFFECT_CONSUMERS: "off" });
  const gateway = await system.startGateway();
  const player = await authedPlayer(system, gateway, { balance: 50_000n });
  await callGateway(gateway, "/withdraw", betBody(player, { amount: 5_000, action_id: round }));
  expect((await callGateway(gateway, "/deposit", closeRoundBody(round, [5_000], [0]))).status).toBe(200);
  await eventually(async () => {
    const status = await roundStatus({ ctx: system.ledger.ctx, input: { tenantId: 1, roundId: round } });
    return Object.values(status?.side_effects ?? {}).every((state) => state === "published")
      ? true
      : undefined;
  });
  await system.stop(relayOnly);
  return { gateway, player };
}

async function crashThenRecover(system: TestSystem, fault: string) {
  const faulty = await system.startWorker(testCrashPointEnv(fault));
  const gateway = await system.startGateway();
  const player = await authedPlayer(system, gateway, { balance: 50_000n });
  const round = `round-${fault}`;
  expect(
    (await callGateway(gateway, "/withdraw", betBody(player, { amount: 5_000, action_id: round }))).status,
  ).toBe(200);
  // The platform keeps retrying the close until it is acknowledged, whichever worker answers.
  const closing = callWithRetry([gateway], "/deposit", closeRoundBody(round, [5_000], [0]), {
    attempts: 100,
    backoffMs: 200,
  });
  await faulty.exited;
  expect(faulty.child.signalCode).toBe("SIGKILL");
  // Rows claimed (marked published) by the relay that died before publishing have no job: the
  // sweep hands them back once OUTBOX_SWEEP_AGE_SECONDS old (60 s by default; short here).
  const recovered = await system.startWorker({ OUTBOX_SWEEP_AGE_SECONDS: "2", OUTBOX_SWEEP_EVERY_MS: "300" });
  expect((await closing).status).toBe(200);
  await allApplied(system, round);
  await expectEachEffectOnce(system, round, player.userId);
  if (fault === "consumer-before-commit") {
    // The jobs the dead consumer held are taken back by the new worker and counted as stalled (the
    // sweep may have republished their events first: then the stalled jobs are counted no-ops).
    const total = await eventually(async () => {
      const stalled = (await scrapeOf(recovered)).samples.filter(
        (sample) =>
          sample.name === "wallet_jobs_stalled_total" && sample.labels.queue?.startsWith("side-effects-"),
      );
      const sum = stalled.reduce((all, sample) => all + sample.value, 0);
      return sum >= 1 ? sum : undefined;
    });
    expect(total).toBeLessThanOrEqual(4);
    await expectEachEffectOnce(system, round, player.userId);
  }
}

describe("side effects survive crashes at every step", () => {
  it("worker killed between the relay's claim and its publish: each effect once after restart, by the sweep", async () => {
    await crashThenRecover(systems.beforePublish, "relay-before-publish");
  }, 60_000);

  it("worker killed right after the publish: each effect once after restart", async () => {
    await crashThenRecover(systems.afterPublish, "relay-after-publish");
  }, 60_000);

  it("worker killed in the middle of a consumer's transaction: each effect once after restart", async () => {
    await crashThenRecover(systems.inConsumer, "consumer-before-commit");
  }, 60_000);
});

describe("a side-effect job that failed for good", () => {
  it("is kept in the failed set, and the sweep still republishes its events under a new job: each applied once", async () => {
    const system = systems.failedForGood;
    const round = "round-failed-for-good";
    const { player } = await closedAndPublished(system, round);

    // Each topic's job fails for good (as after its last attempt) and stays in the failed set a week.
    const redis = createRedis({ url: inject("redisUrl") }, "fault-test");
    const failing = sideEffectTopics.map((topic) => {
      const name = sideEffectQueueName(topic);
      const prefix = redisNames(system.prefix).bullPrefix(name);
      return {
        queue: new Queue(name, { connection: redis, prefix }),
        worker: new Worker(
          name,
          async () => {
            throw new UnrecoverableError("consumer gave up");
          },
          { connection: redis, prefix },
        ),
      };
    });
    try {
      await eventually(async () => {
        const counts = await Promise.all(failing.map(({ queue }) => queue.getFailedCount()));
        return counts.every((count) => count === 1) ? true : undefined;
      });
      await Promise.all(failing.map(({ worker }) => worker.close()));

      const worker = await system.startWorker({
        OUTBOX_SWEEP_AGE_SECONDS: "1",
        OUTBOX_SWEEP_EVERY_MS: "300",
      });
      await allApplied(system, round);
      await expectEachEffectOnce(system, round, player.userId);
      // The failed jobs are still there: the republished events went in jobs of their own.
      expect(await Promise.all(failing.map(({ queue }) => queue.getFailedCount()))).toEqual([1, 1, 1, 1]);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      await Promise.all(failing.map(({ queue, worker }) => Promise.all([worker.close(), queue.close()])));
      redis.disconnect();
    }
  }, 60_000);
});

describe("Redis losing its data", () => {
  it("published events whose jobs vanished are found by the sweep and applied once; serialization comes back", async () => {
    const system = systems.redisLoss;
    const round = "round-redis-loss";
    const { gateway, player } = await closedAndPublished(system, round);
    await system.wipeRedis();

    const worker = await system.startWorker({ OUTBOX_SWEEP_AGE_SECONDS: "1", OUTBOX_SWEEP_EVERY_MS: "300" });
    await allApplied(system, round);
    await expectEachEffectOnce(system, round, player.userId);

    // Wiped again while everything runs: callbacks still work, and the partitions' global
    // concurrency (kept in Redis) is set again by the running worker within seconds.
    await system.wipeRedis();
    const balance = await callWithRetry([gateway], "/balance", { user_id: player.userId }, { attempts: 30 });
    expect(balance.json.data?.amount).toBe(45_000);
    const redis = createRedis({ url: inject("redisUrl") }, "fault-test");
    const partition = new Queue("ledger-0", {
      connection: redis,
      prefix: redisNames(system.prefix).bullPrefix("ledger-0"),
    });
    try {
      await eventually(
        async () => ((await partition.getGlobalConcurrency()) === 1 ? true : undefined),
        10_000,
        "global concurrency",
      );
    } finally {
      await partition.close();
      redis.disconnect();
    }
    expect(worker.child.exitCode).toBeNull();
  }, 60_000);
});
