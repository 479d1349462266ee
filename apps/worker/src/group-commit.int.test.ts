import { randomUUID } from "node:crypto";
import { sha256Hex } from "@wallet/contracts/hash";
import type { LedgerCall } from "@wallet/contracts/jobs";
import { callBatchBytes } from "@wallet/ledger/batch/batch-bytes";
import type { GroupPlan } from "@wallet/ledger/calls/plan";
import { planCall } from "@wallet/ledger/calls/plan";
import { createDatabase, type Database } from "@wallet/ledger/db";
import { betBody } from "@wallet/ledger/testing/callback-bodies";
import { testsOwn } from "@wallet/ledger/testing/general-log";
import { balanceOf, journalOf } from "@wallet/ledger/testing/ledger-reads";
import { playerWithSession } from "@wallet/ledger/testing/players";
import { useTestLedger } from "@wallet/ledger/testing/test-ledger";
import { AckLog } from "@wallet/queue/ack-log";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { RedisClock } from "@wallet/queue/redis-clock";
import { createLogger } from "@wallet/telemetry/logger";
import type { RowDataPacket } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Gathered, GroupCommit } from "./group-commit.ts";
import { quietWorkerMetrics } from "./testing/quiet-metrics.ts";

/**
 * The group commit cuts a batch by its calls' bytes too (issue 42): a batch's writes are one packet,
 * which must stay under the smallest `max_allowed_packet` however large its calls. In-process, on a
 * real ledger and Redis, the group commit as the worker builds it, with a small byte budget.
 */
const ledger = useTestLedger();
// One multi-statement connection: its session counters see exactly the batches' packets.
let single: Database;
beforeAll(() => {
  single = createDatabase({ url: ledger.url, batchPoolSize: 1 });
});
const redis = createRedis({ url: inject("redisUrl") }, "group-commit-test");
const prefix = `group-commit-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  await single?.close();
  redis.disconnect();
  await deleteKeysUnder(inject("redisUrl"), prefix);
});

/** Bytes the batch connection's session has received (`Bytes_received`): every packet sent on it. */
async function bytesReceived(): Promise<number> {
  // The test's own statement on the product's connection (`testsOwn`): the portability gate leaves it out.
  const [rows] = (await single.batch.query(
    `${testsOwn}SHOW SESSION STATUS LIKE 'Bytes_received'`,
  )) as unknown as [RowDataPacket[]];
  return Number(rows[0]?.Value);
}

/** An id of `length` characters that every copy escapes (quotes, backslashes), ending unique. */
const escapedId = (length: number) => {
  const tail = `-${randomUUID().slice(0, 8)}`;
  return `${`'"\\`.repeat(length).slice(0, length - tail.length)}${tail}`;
};

describe("the group commit's byte budget (maxBatchBytes)", () => {
  it("cuts calls whose weights pass it into several batches, in order, each call answered once: balances and journal right, the packets within the weights", async () => {
    const clock = new RedisClock(redis);
    const batchSizes: number[] = [];
    const players = await Promise.all(
      Array.from({ length: 12 }, () => playerWithSession(ledger, { balance: 10_000n })),
    );
    // BETs whose ids (128 characters each) every copy of them escapes: the batch's worst bytes per body byte.
    const calls = players.map((player) => {
      const body = betBody(player, { provider_tx_id: escapedId(128), action_id: escapedId(128) });
      const rawBody = JSON.stringify(body);
      const call: LedgerCall = {
        id: randomUUID(),
        op: "withdraw",
        tenantId: 1,
        rawBody,
        bodySha256: sha256Hex(rawBody),
        deadline: clock.now() + 60_000,
      };
      const plan = planCall({ ...call, body }) as GroupPlan;
      expect(plan.run).toBe("batch");
      return { call, body, plan, bytes: callBatchBytes(Buffer.byteLength(rawBody)) };
    });
    const weights = calls.map((call) => call.bytes);
    // Three of the largest fit, a fourth does not: batches of three (the calls are of about one size).
    const budget = 3 * Math.max(...weights);
    expect(weights.slice(0, 4).reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(budget);
    const commit = new GroupCommit({
      ctx: {
        ...ledger.ctx,
        batch: single.batch,
        testHooks: { afterBatchRead: async (requests) => void batchSizes.push(requests.length) },
      },
      redis,
      clock,
      answers: new AckLog(redis, prefix, { seconds: 0, clock }),
      logger: createLogger("group-commit-test", "silent"),
      metrics: quietWorkerMetrics(),
      maxBatch: 256,
      maxBatchBytes: budget,
    });

    const before = await bytesReceived();
    const ends = await commit.submit(
      calls.map(({ call, plan }): Gathered => ({ call, plan, partition: 0, replyTo: `${prefix}-replies` })),
    );
    const received = (await bytesReceived()) - before;

    expect(batchSizes).toEqual([3, 3, 3, 3]);
    expect(ends.map((end) => (end.expired ? "expired" : end.outcome.status))).toEqual(calls.map(() => 200));
    for (const [index, player] of players.entries()) {
      expect(await balanceOf(ledger, player.playerId)).toBe(9_000n);
      const lines = await journalOf(ledger, player.playerId);
      expect(lines.filter((line) => line.kind === "BET")).toEqual([
        expect.objectContaining({
          amount: -1_000n,
          balanceAfter: 9_000n,
          providerTxId: calls[index]?.body.provider_tx_id,
          roundId: calls[index]?.body.action_id,
        }),
      ]);
    }
    // What the batches sent (both round trips, SQL text included: 32 KiB a batch allowed for it, the
    // size budgets' statement text twice) stays within their calls' weights: what the budget counts.
    const weighed = weights.reduce((sum, bytes) => sum + bytes, 0);
    expect(received).toBeLessThan(weighed + batchSizes.length * 32 * 1024);
    expect(received).toBeGreaterThan(12 * 2 * 128);
  });
});
