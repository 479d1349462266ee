import { closeRoundEvent, sideEffectTopics } from "@wallet/contracts/side-effects";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { holdWalletLock } from "@wallet/ledger/testing/locks";
import { latestOutboxRow } from "@wallet/ledger/testing/outbox-reads";
import { type Scrape, sampleSum } from "@wallet/telemetry/testing/scrape";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  eventually,
  scrapeOf,
  testTenants,
  useTestSystem,
} from "../harness/system.ts";

// Each signal is checked by driving a known number of callbacks and reading the difference of two
// real scrapes: a counter that moves by the wrong amount, or a histogram that misses a request, fails.
const system = useTestSystem({ deadlineMs: 6_000 });
let gateway: AppProcess;
let worker: AppProcess;
beforeAll(async () => {
  worker = await system.startWorker();
  gateway = await system.startGateway();
}, 60_000);

/** Scrapes before and after `drive`, and reads differences between the two. */
async function measure(proc: () => AppProcess[], drive: () => Promise<void>) {
  const before = await Promise.all(proc().map(scrapeOf));
  await drive();
  const after = await Promise.all(proc().map(scrapeOf));
  const sum = (scrapes: Scrape[], name: string, labels: Record<string, string>) =>
    scrapes.reduce((total, scraped) => total + sampleSum(scraped, name, labels), 0);
  return {
    delta: (name: string, labels: Record<string, string> = {}) =>
      sum(after, name, labels) - sum(before, name, labels),
    after: (name: string, labels: Record<string, string> = {}) => sum(after, name, labels),
  };
}

describe("gateway metrics", () => {
  it("RED per endpoint, action and status; replays and conflicts; every signature refusal by reason", async () => {
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: "metrics-red" });
    const tenant = testTenants[0];
    if (!tenant) throw new Error("tenant");

    const m = await measure(
      () => [gateway],
      async () => {
        expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(200);
        expect((await callGateway(gateway, "/withdraw", bet)).status).toBe(200); // replay
        const conflict = await callGateway(gateway, "/withdraw", { ...bet, amount: 2_000 });
        expect(conflict.status).toBe(409);
        const tooBig = await callGateway(gateway, "/withdraw", betBody(player, { amount: 50_000 }));
        expect(tooBig.status).toBe(402);
        expect((await callGateway(gateway, "/deposit", settleBody(player, bet, "WIN"))).status).toBe(200);
        expect(
          (
            await callGateway(gateway, "/balance", {
              user_id: player.userId,
              session_token: player.sessionToken,
              currency: "EUR",
            })
          ).status,
        ).toBe(200);
        // Refusals before the body is read: their action is `unknown`.
        expect((await callGateway(gateway, "/withdraw", bet, { publicKey: null })).status).toBe(401);
        expect((await callGateway(gateway, "/withdraw", bet, { publicKey: "nobody" })).status).toBe(401);
        expect((await callGateway(gateway, "/withdraw", bet, { signature: null })).status).toBe(401);
        expect((await callGateway(gateway, "/withdraw", bet, { signature: "%%%" })).status).toBe(401);
        const forged = await callGateway(gateway, "/withdraw", bet, {
          signature: Buffer.alloc(32, 7).toString("base64"),
        });
        expect(forged.status).toBe(401);
        expect((await callGateway(gateway, "/withdraw", { action: "NOPE" })).status).toBe(400);
      },
    );

    const count = (labels: Record<string, string>) =>
      m.delta("wallet_callback_duration_seconds_count", labels);
    expect(count({ endpoint: "withdraw", action: "BET", status: "200" })).toBe(2);
    expect(count({ endpoint: "withdraw", action: "BET", status: "409" })).toBe(1);
    expect(count({ endpoint: "withdraw", action: "BET", status: "402" })).toBe(1);
    expect(count({ endpoint: "deposit", action: "WIN", status: "200" })).toBe(1);
    expect(count({ endpoint: "balance", action: "none", status: "200" })).toBe(1);
    expect(count({ endpoint: "withdraw", action: "unknown", status: "401" })).toBe(5);
    expect(count({ endpoint: "withdraw", action: "unknown", status: "400" })).toBe(1);
    expect(count({})).toBe(12);
    // A histogram's +Inf bucket counts every observation, and its sum grew by real durations.
    expect(
      m.delta("wallet_callback_duration_seconds_bucket", { endpoint: "withdraw", action: "BET", le: "+Inf" }),
    ).toBe(4);
    expect(m.delta("wallet_callback_duration_seconds_sum", { endpoint: "withdraw" })).toBeGreaterThan(0);
    expect(m.delta("wallet_callback_duration_seconds_sum", { endpoint: "withdraw" })).toBeLessThan(12);

    expect(
      m.delta("wallet_callback_replays_total", { endpoint: "withdraw", action: "BET", kind: "replay" }),
    ).toBe(1);
    expect(m.delta("wallet_callback_replays_total", { kind: "conflict" })).toBe(1);
    expect(m.delta("wallet_callback_replays_total")).toBe(2);

    for (const reason of [
      "missing_public_key",
      "unknown_public_key",
      "missing_signature",
      "malformed_signature",
      "mismatch",
    ]) {
      expect(m.delta("wallet_signature_failures_total", { reason }), reason).toBe(1);
    }
    expect(m.after("wallet_callbacks_in_flight")).toBe(0);
    expect(m.after("wallet_workers_live")).toBe(1);
    expect(m.after("wallet_dependency_up", { dependency: "redis" })).toBe(1);
  });

  it("worker: outcomes by op, action and result, job durations, queue wait per partition", async () => {
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const bet = betBody(player, { amount: 1_000, action_id: "metrics-worker" });
    const m = await measure(
      () => [worker],
      async () => {
        await callGateway(gateway, "/withdraw", bet);
        await callGateway(gateway, "/withdraw", bet);
        await callGateway(gateway, "/withdraw", { ...bet, amount: 2_000 });
        await callGateway(gateway, "/withdraw", betBody(player, { amount: 50_000 }));
        await callGateway(gateway, "/deposit", settleBody(player, bet, "ROLL_BACK"));
      },
    );
    const outcome = (labels: Record<string, string>) => m.delta("wallet_ledger_outcomes_total", labels);
    expect(outcome({ op: "withdraw", action: "BET", result: "applied", status: "200" })).toBe(1);
    expect(outcome({ op: "withdraw", action: "BET", result: "replayed", status: "200" })).toBe(1);
    expect(outcome({ op: "withdraw", action: "BET", result: "conflict", status: "409" })).toBe(1);
    expect(outcome({ op: "withdraw", action: "BET", result: "rejected", status: "402" })).toBe(1);
    expect(outcome({ op: "deposit", action: "ROLL_BACK", result: "applied" })).toBe(1);
    expect(outcome({})).toBe(5);
    expect(m.delta("wallet_ledger_job_duration_seconds_count", { op: "withdraw" })).toBe(4);
    expect(m.delta("wallet_ledger_job_duration_seconds_count", { op: "deposit" })).toBe(1);
    // The player's callbacks all ran on one partition; the wait was measured for each of them.
    expect(m.delta("wallet_ledger_queue_wait_seconds_count")).toBe(5);
    const partitions = new Set(
      (await scrapeOf(worker)).samples
        .filter((sample) => sample.name === "wallet_ledger_queue_wait_seconds_count")
        .map((sample) => sample.labels.partition),
    );
    expect([...partitions].every((partition) => Number(partition) >= 0 && Number(partition) < 8)).toBe(true);
    expect(m.after("wallet_ledger_queue_depth", { partition: "0" })).toBe(0);
    expect(m.after("wallet_dependency_up", { dependency: "mysql" })).toBe(1);
    expect(m.after("wallet_dependency_up", { dependency: "redis" })).toBe(1);
    expect(m.after("wallet_dependency_check_seconds_count", { dependency: "mysql" })).toBeGreaterThan(0);
  });

  it("side effects: one per topic applied, a redelivery counted as duplicate, the outbox drained", async () => {
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const round = "metrics-close";
    const m = await measure(
      () => [worker],
      async () => {
        await callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000, action_id: round }));
        expect((await callGateway(gateway, "/deposit", closeRoundBody(round, [1_000], [0]))).status).toBe(
          200,
        );
        await eventually(
          async () =>
            (sampleSum(await scrapeOf(worker), "wallet_outbox_pending_rows") === 0 &&
              sampleSum(await scrapeOf(worker), "wallet_side_effects_total", { topic: "rg" }) > 0) ||
            undefined,
          15_000,
          "side effects applied",
        );
        // The sweep's republish, by hand: the same event again is a counted no-op.
        const { SideEffectQueues } = await import("@wallet/queue/side-effect-queues");
        const { Redis } = await import("ioredis");
        const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
        const queues = new SideEffectQueues(redis, system.prefix);
        const event = await latestOutboxRow(system.ledger, "loyalty");
        await queues.publish(
          [{ topic: "loyalty", eventId: event.eventId, payload: closeRoundEvent.parse(event.payload) }],
          "republished-by-hand",
        );
        await queues.close();
        redis.disconnect();
      },
    );
    for (const topic of sideEffectTopics) {
      expect(m.delta("wallet_side_effects_total", { topic, outcome: "applied" }), topic).toBe(1);
    }
    expect(m.delta("wallet_outbox_published_total")).toBe(sideEffectTopics.length);
    await eventually(
      async () =>
        sampleSum(await scrapeOf(worker), "wallet_side_effects_total", {
          topic: "loyalty",
          outcome: "duplicate",
        }) || undefined,
      10_000,
      "duplicate counted",
    );
    const final = await scrapeOf(worker);
    expect(sampleSum(final, "wallet_outbox_pending_rows")).toBe(0);
    expect(sampleSum(final, "wallet_outbox_oldest_pending_age_seconds")).toBe(0);
  });

  it("a row lock held past innodb_lock_wait_timeout is one counted transaction retry, and the bet still lands", async () => {
    const player = await authedPlayer(system, gateway, { balance: 10_000n });
    const lock = await holdWalletLock(system.ledger, player.playerId);
    try {
      const m = await measure(
        () => [worker],
        async () => {
          const answer = callGateway(gateway, "/withdraw", betBody(player, { amount: 1_000 }));
          // The worker's statement waits 3 s for the lock, times out (1205), and the transaction runs again.
          await eventually(
            async () =>
              sampleSum(await scrapeOf(worker), "wallet_ledger_transaction_retries_total", {
                error: "lock_wait_timeout",
              }) || undefined,
            10_000,
            "a lock-wait retry",
          );
          await lock.release();
          const result = await answer;
          expect(result.status).toBe(200);
          expect(result.json.data?.new_balance).toBe(9_000);
        },
      );
      expect(m.delta("wallet_ledger_transaction_retries_total", { error: "lock_wait_timeout" })).toBe(1);
      expect(m.delta("wallet_ledger_transaction_retries_total")).toBe(1);
    } finally {
      await lock.release();
    }
  });
});
