import { randomUUID } from "node:crypto";
import { redisNames } from "@wallet/contracts/jobs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AckLog, type Acknowledged, type Answer } from "./ack-log.ts";
import {
  ackLogPages,
  ackLogSince,
  ackLogTrimmedTo,
  prefixesWithAckLog,
  recordedPartitions,
} from "./ack-log-read.ts";
import { createRedis } from "./redis.ts";
import { eventually } from "./testing/eventually.ts";

// The acknowledgement log against the real Redis: what each batch writes, that nothing is published
// when its entry is refused, how it is trimmed and read back.
const prefix = `test-${randomUUID().slice(0, 12)}`;
const names = redisNames(prefix);
const redis = createRedis({ url: inject("redisUrl") }, "ack-log-test");
const spy = createRedis({ url: inject("redisUrl") }, "ack-log-test-spy", { subscriber: true });
const channel = `${prefix}:reply:gw-1`;
const published: string[] = [];
let now = 0;
const clock = { now: () => now };
const log = new AckLog(redis, prefix, { seconds: 60, clock });

beforeAll(async () => {
  spy.on("message", (_channel: string, message: string) => published.push(message));
  await spy.subscribe(channel);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  spy.disconnect();
});

const bet = (id: string, userId = "u-1"): Acknowledged => ({
  operatorId: 1,
  providerTxId: id,
  action: "BET",
  roundId: `round-${id}`,
  userId,
  amount: "-1000",
  replayed: false,
});
const answer = (id: string, partition: number, acknowledged?: Acknowledged): Answer => ({
  replyTo: channel,
  reply: { id, status: acknowledged ? 200 : 402, body: `{"id":"${id}"}`, replayed: false },
  partition,
  acknowledged,
});
const entries = (partition: number) => redis.xrange(names.ackLog(partition), "-", "+");
/** Waits for `count` messages on the reply channel in all, and returns the ids each carried. */
const messages = async (count: number) => {
  await eventually(async () => (published.length >= count ? true : undefined), 5_000, "replies");
  return published.map((message) => (JSON.parse(message) as Array<{ id: string }>).map((reply) => reply.id));
};

describe("the acknowledgement log", () => {
  it("writes one entry per partition of a batch, holding exactly what was answered 200, then publishes every answer", async () => {
    // A RedisClock's time has a half millisecond (its offset is the middle of a round trip).
    now = (await redisTime()) + 5.5;
    const close: Acknowledged = {
      operatorId: 2,
      providerTxId: "close-1",
      action: "CLOSE_ROUND",
      roundId: "round-9",
      userId: null,
      amount: "0",
      replayed: true,
    };
    await log.send([
      answer("a", 0, bet("tx-a")),
      answer("refused", 0),
      answer("b", 1, { ...bet("tx-b", "u-2"), action: "WIN", amount: "2500" }),
      answer("c", 0, close),
    ]);
    expect(await messages(1)).toEqual([["a", "refused", "b", "c"]]);
    const [first] = await entries(0);
    expect(first?.[1]).toEqual([
      "at",
      String(Math.floor(now)),
      "calls",
      JSON.stringify([
        [1, "tx-a", "BET", "round-tx-a", "u-1", "-1000", 0],
        [2, "close-1", "CLOSE_ROUND", "round-9", null, "0", 1],
      ]),
    ]);
    expect((await entries(1)).map(([, fields]) => fields)).toEqual([
      [
        "at",
        String(Math.floor(now)),
        "calls",
        JSON.stringify([[1, "tx-b", "WIN", "round-tx-b", "u-2", "2500", 0]]),
      ],
    ]);
    // Stamped by Redis as it wrote it: at most a moment after the answers' time.
    expect(Math.abs(Number(first?.[0].split("-")[0]) - now)).toBeLessThan(1_000);
  });

  it("writes nothing for a batch that acknowledged nothing, or when ACK_LOG_SECONDS is 0", async () => {
    const before = [(await entries(0)).length, (await entries(1)).length];
    await log.send([answer("d", 0), answer("e", 1)]);
    await new AckLog(redis, prefix, { seconds: 0, clock }).send([answer("f", 0, bet("tx-f"))]);
    expect((await messages(3)).slice(1)).toEqual([["d", "e"], ["f"]]);
    expect([(await entries(0)).length, (await entries(1)).length]).toEqual(before);
  });

  it("publishes nothing of a batch whose entry Redis refuses (its key of another type), and all once it is fixed", async () => {
    // MULTI/EXEC would publish here: a command failing as it runs (WRONGTYPE) does not abort a
    // transaction. The script stops at the failing XADD.
    await redis.set(names.ackLog(1), "not a stream");
    await expect(log.send([answer("g", 0, bet("tx-g")), answer("h", 1, bet("tx-h"))])).rejects.toThrow(
      /WRONGTYPE/,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(published).toHaveLength(3);
    await redis.del(names.ackLog(1));
    await log.send([answer("g", 0, bet("tx-g")), answer("h", 1, bet("tx-h"))]);
    expect((await messages(4)).at(-1)).toEqual(["g", "h"]);
    expect((await entries(1)).map(([, fields]) => JSON.parse(fields[3] ?? "")[0][1])).toEqual(["tx-h"]);
  });

  it("is trimmed by time as it is written: entries older than ACK_LOG_SECONDS go, by whole stream nodes", async () => {
    const key = names.ackLog(3);
    const [, perNode = "100"] = (await redis.config("GET", "stream-node-max-entries")) as string[];
    now = await redisTime();
    // Three nodes of entries written 61 s ago and older (the log keeps 60 s), one just inside it.
    const old = now - 61_000 - 3 * Number(perNode);
    for (let at = 0; at < 3 * Number(perNode); at++)
      await redis.xadd(key, `${old + at}-0`, "at", String(old + at), "calls", "[]");
    await redis.xadd(key, `${now - 59_000}-0`, "at", String(now - 59_000), "calls", "[]");
    await log.send([answer("new", 3, bet("new"))]);
    const kept = await redis.xrange(key, "-", "+");
    // Approximate trimming removes only whole nodes: the last one, holding the entry still inside, stays.
    const older = kept.filter(([id]) => Number(id.split("-")[0]) < now - 60_000);
    expect(older.length).toBeLessThan(Number(perNode));
    expect(kept.map(([id]) => Number(id.split("-")[0])).filter((ms) => ms >= now - 60_000)).toEqual([
      now - 59_000,
      expect.any(Number),
    ]);
    expect(kept.at(-1)?.[1][3]).toContain('"new"');
    // What a reader is told: the log of this partition is whole from its oldest entry left on.
    expect(await ackLogTrimmedTo(redis, prefix, 3)).toBe(Number(kept[0]?.[0].split("-")[0]));
    expect(await ackLogTrimmedTo(redis, prefix, 0)).toBeUndefined();
  });

  it("records when it began, once, and a worker with the log off removes the record", async () => {
    const other = `test-${randomUUID().slice(0, 12)}`;
    now = 1_000_000;
    await new AckLog(redis, other, { seconds: 60, clock }).recordStart();
    now = 2_000_000;
    await new AckLog(redis, other, { seconds: 60, clock }).recordStart();
    expect(await ackLogSince(redis, other)).toBe(1_000_000);
    await new AckLog(redis, other, { seconds: 0, clock }).recordStart();
    expect(await ackLogSince(redis, other)).toBeUndefined();
  });

  it("reads back from a time, page by page, counting what it cannot read; says where each log starts", async () => {
    const other = `test-${randomUUID().slice(0, 12)}`;
    const reading = new AckLog(redis, other, { seconds: 60, clock });
    now = await redisTime();
    await reading.send([answer("r1", 0, bet("r1")), answer("r2", 0, bet("r2"))]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const from = await redisTime();
    await redis.xadd(redisNames(other).ackLog(0), "*", "at", "x", "calls", "[]");
    await reading.send([answer("r3", 0, bet("r3"))]);
    await reading.send([answer("r4", 0, { ...bet("r4"), replayed: true })]);
    await redis.set(redisNames(other).partitionCount, "2");

    const pages = [];
    for await (const page of ackLogPages(redis, other, 0, from, 2)) pages.push(page);
    expect(pages.map((page) => page.acknowledged.map((call) => call.providerTxId))).toEqual([["r3"], ["r4"]]);
    expect(pages.flatMap((page) => page.unreadable)).toHaveLength(1);
    expect(pages[1]?.acknowledged[0]).toEqual({
      ...bet("r4"),
      replayed: true,
      partition: 0,
      answeredAt: now,
    });
    // Nothing was ever removed from this log: it is whole since it began.
    expect(await ackLogTrimmedTo(redis, other, 0)).toBeUndefined();
    expect(await ackLogTrimmedTo(redis, other, 1)).toBeUndefined();
    expect(await recordedPartitions(redis, other)).toBe(2);
    expect(await recordedPartitions(redis, `${other}-none`)).toBeUndefined();
    expect(await prefixesWithAckLog(redis)).toEqual(expect.arrayContaining([prefix, other]));
  });
});

async function redisTime(): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}
