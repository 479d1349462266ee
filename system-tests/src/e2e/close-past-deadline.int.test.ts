import { randomUUID } from "node:crypto";
import { betBody, closeRoundBody, settleBody } from "@wallet/ledger/testing/callback-bodies";
import { sampleSum } from "@wallet/telemetry/testing/scrape";
import { Redis } from "ioredis";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  type AppProcess,
  authedPlayer,
  callGateway,
  eventually,
  operatorGet,
  scrapeOf,
  useTestSystem,
} from "../harness/system.ts";

/**
 * Issue 39: a close whose work outlasts the platform's deadline is stored all the same, by its first
 * send; the resend gets the stored answer. Before, the worker refused a call past its deadline, so a
 * close that waited or worked longer than the deadline was refused on every one of the platform's
 * sends and its round lost for good. One partition, so every call queues behind every other; the
 * worker's test hooks make the work slow: the close intake waits 4 s once it has read a large close,
 * and a BET into a round named `held-…` holds its batch 4 s (the deadline is 2.5 s). One close at a
 * time in the intake, so a resend taken while its first send is held waits for it.
 */
const system = useTestSystem({ partitions: 1 });
let gateway: AppProcess;
let worker: AppProcess;
let api: AppProcess;
beforeAll(async () => {
  worker = await system.startWorker({
    NODE_ENV: "test",
    CLOSE_INTAKE_CONCURRENCY: "1",
    TEST_HOLD_CLOSE_INTAKE_MS: "4000",
    TEST_HOLD_BATCH_ROUND: "held-",
    TEST_HOLD_BATCH_MS: "4000",
  });
  [gateway, api] = await Promise.all([system.startGateway(), system.startOperatorApi()]);
}, 60_000);

const closedRound = (round: string) =>
  eventually(
    async () => {
      const { json } = await operatorGet(api, `/v1/rounds/${round}?operatorId=1`);
      return json.status === "closed" ? json : undefined;
    },
    20_000,
    `round ${round} closed`,
  );

describe("a CLOSE_ROUND whose work outlasts its deadline", () => {
  it("a small one queued behind a slow batch past its deadline: 503, yet stored by that send; the resend answered from it", async () => {
    const player = await authedPlayer(system, gateway);
    const round = `late-small-${randomUUID().slice(0, 8)}`;
    // The BET's batch holds the partition 4 s; the close queues behind it past its 2.5 s deadline.
    const held = callGateway(
      gateway,
      "/withdraw",
      betBody(player, { amount: 100, action_id: `held-${round}` }),
      {
        timeoutMs: 30_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const close = closeRoundBody(round, [100], [0]);
    const first = await callGateway(gateway, "/deposit", close, { timeoutMs: 30_000 });
    expect(first.status).toBe(503);
    await held;
    // Stored by that send: no resend has been made yet.
    expect(await closedRound(round)).toMatchObject({
      close: { bet_count: 1, stakes: [100], cash_out_coefficients: [0] },
    });
    const resend = await callGateway(gateway, "/deposit", close);
    expect(resend.status).toBe(200);
    expect(resend.json.data).toMatchObject({ provider_tx_id: `${round}-1-close-round` });
    expect((await callGateway(gateway, "/deposit", close)).text).toBe(resend.text);
  }, 60_000);

  it("a large one whose intake takes past its deadline: 503, stored by that send, the resend answered at once; the partition's players unharmed meanwhile", async () => {
    const player = await authedPlayer(system, gateway, { balance: 10_000_000n });
    const round = `late-large-${randomUUID().slice(0, 8)}`;
    const stakes = Array.from({ length: 100_000 }, (_, i) => 1_000 + (i % 500));
    const close = closeRoundBody(
      round,
      stakes,
      stakes.map((_, i) => (i % 3 ? 1.5 : 0)),
    );
    // The one partition's player plays all along: the intake holds no partition while it works.
    let done = false;
    const statuses: number[] = [];
    const play = (async () => {
      for (let step = 0; !done; step++) {
        const bet = betBody(player, { amount: 100, action_id: `meanwhile-${round}-${step}` });
        statuses.push((await callGateway(gateway, "/withdraw", bet)).status);
        statuses.push(
          (await callGateway(gateway, "/deposit", settleBody(player, bet, "WIN", { amount: 150 }))).status,
        );
      }
    })();
    try {
      const first = await callGateway(gateway, "/deposit", close, { timeoutMs: 30_000 });
      expect(first.status).toBe(503);
      expect(await closedRound(round)).toMatchObject({ close: { bet_count: 100_000 } });
    } finally {
      done = true;
      await play;
    }
    expect(statuses.length).toBeGreaterThan(10);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const resend = await callGateway(gateway, "/deposit", close);
    expect(resend.status).toBe(200);
    const { json } = await operatorGet(api, `/v1/rounds/${round}?operatorId=1`);
    expect((json.close as { stakes: number[] }).stakes).toEqual(stakes);
  }, 60_000);

  it("a large one resent while its first send is still held: the resend is answered from the first's stored answer and its own pieces leave Redis", async () => {
    const round = `late-resent-${randomUUID().slice(0, 8)}`;
    const stakes = Array.from({ length: 20_000 }, (_, i) => 100 + i);
    const close = closeRoundBody(
      round,
      stakes,
      stakes.map(() => 0),
    );
    const first = await callGateway(gateway, "/deposit", close, { timeoutMs: 30_000 });
    expect(first.status).toBe(503);
    // The first send's intake is still held: this resend's bytes get pieces and a job of their own,
    // which waits for the first and then finds its answer stored. A slow machine may make it 503 too.
    const resend = await callGateway(gateway, "/deposit", close, { timeoutMs: 30_000 });
    expect([200, 503]).toContain(resend.status);
    await eventually(
      async () =>
        sampleSum(await scrapeOf(worker), "wallet_close_intake_total", { result: "answered_before" }) === 1 ||
        undefined,
      20_000,
      "the resend's intake answered from the stored answer",
    );
    const last = await callGateway(gateway, "/deposit", close);
    expect(last.status).toBe(200);
    expect(last.json.data).toMatchObject({ provider_tx_id: `${round}-1-close-round` });
    if (resend.status === 200) expect(resend.text).toBe(last.text);
    expect(await closedRound(round)).toMatchObject({ close: { bet_count: 20_000 } });
    // Neither send's pieces are left waiting for their TTL.
    const redis = new Redis(inject("redisUrl"));
    try {
      expect(await redis.keys(`${system.prefix}:close-body:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});
