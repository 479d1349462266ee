import { redisNames } from "@wallet/contracts/jobs";
import { closeRoundEventId, roundReportEventId } from "@wallet/contracts/side-effects";
import { playerSummary } from "@wallet/ledger/reads/player-summary";
import { roundStatus } from "@wallet/ledger/reads/round-status";
import { betBody, closeRoundBody, countRows } from "@wallet/ledger/testing/ledger-fixtures";
import { createRedis } from "@wallet/queue/redis";
import { jobIdFor, reportingQueueName } from "@wallet/queue/side-effect-queues";
import { Queue } from "bullmq";
import { describe, expect, inject, it } from "vitest";
import {
  authedPlayer,
  callGateway,
  callWithRetry,
  eventually,
  scrapeOf,
  type TestSystem,
  useTestSystem,
} from "../testing/system.ts";

// One system per scenario: each has its own database and Redis prefix.
const systems = {
  beforePublish: useTestSystem(),
  afterPublish: useTestSystem(),
  inConsumer: useTestSystem(),
  redisLoss: useTestSystem(),
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

async function crashThenRecover(system: TestSystem, fault: string) {
  const faulty = await system.startWorker({ FAULT_POINT: fault });
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
  const recovered = await system.startWorker();
  expect((await closing).status).toBe(200);
  await allApplied(system, round);
  await expectEachEffectOnce(system, round, player.userId);
  if (fault === "consumer-before-commit") {
    // The jobs the dead consumer held were taken back by the new worker, and counted as stalled.
    const stalled = (await scrapeOf(recovered)).samples.filter(
      (sample) =>
        sample.name === "wallet_jobs_stalled_total" && sample.labels.queue?.startsWith("side-effects-"),
    );
    const total = stalled.reduce((sum, sample) => sum + sample.value, 0);
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(4);
  }
}

describe("side effects survive crashes at every step", () => {
  it("worker killed between the CLOSE_ROUND commit and the publish: each effect once after restart", async () => {
    await crashThenRecover(systems.beforePublish, "relay-before-publish");
  }, 60_000);

  it("worker killed between the publish and the mark: each effect once after restart", async () => {
    await crashThenRecover(systems.afterPublish, "relay-after-publish");
  }, 60_000);

  it("worker killed in the middle of a consumer's transaction: each effect once after restart", async () => {
    await crashThenRecover(systems.inConsumer, "consumer-before-commit");
  }, 60_000);
});

describe("Redis losing its data", () => {
  it("published events whose jobs vanished are found by the sweep and applied once; serialization comes back", async () => {
    const system = systems.redisLoss;
    const relayOnly = await system.startWorker({ SIDE_EFFECT_CONSUMERS: "off" });
    const gateway = await system.startGateway();
    const player = await authedPlayer(system, gateway, { balance: 50_000n });
    const round = "round-redis-loss";
    await callGateway(gateway, "/withdraw", betBody(player, { amount: 5_000, action_id: round }));
    expect((await callGateway(gateway, "/deposit", closeRoundBody(round, [5_000], [0]))).status).toBe(200);
    await eventually(async () => {
      const status = await roundStatus({ ctx: system.ledger.ctx, input: { tenantId: 1, roundId: round } });
      return Object.values(status?.side_effects ?? {}).every((state) => state === "published")
        ? true
        : undefined;
    });
    await system.stop(relayOnly);
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
