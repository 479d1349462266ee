import { randomUUID } from "node:crypto";
import type { OutcomeReply } from "@wallet/contracts/jobs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PartitionQueues } from "./partitions.ts";
import { createRedis } from "./redis.ts";
import { publishReplies, ReplyChannel } from "./reply-channel.ts";
import { eventually } from "./testing/eventually.ts";

const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "reply-test");
const subscriber = createRedis({ url: inject("redisUrl") }, "reply-test-sub", { subscriber: true });
const channel = new ReplyChannel(subscriber, `${prefix}:reply:gw-test`);

/** Answers for one channel, as the worker publishes them. */
const publishTo = (replyTo: string, replies: OutcomeReply[]) =>
  publishReplies(
    redis,
    replies.map((reply) => ({ replyTo, reply })),
  );

beforeAll(async () => {
  await channel.open();
});
afterAll(async () => {
  await channel.close();
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  subscriber.disconnect();
});

describe("ReplyChannel", () => {
  it("delivers a reply to the request waiting for its id", async () => {
    const waiting = channel.expect("job-1", 5_000);
    await publishTo(channel.channel, [
      {
        id: "job-1",
        status: 200,
        body: '{"code":200}',
        replayed: false,
      },
    ]);
    expect(await waiting).toEqual({ id: "job-1", status: 200, body: '{"code":200}', replayed: false });
    expect(channel.pending).toBe(0);
  });

  it("one message answers every request of a batch it carries, each with its own reply", async () => {
    const first = channel.expect("batch-a", 5_000);
    const second = channel.expect("batch-b", 5_000);
    await publishTo(channel.channel, [
      { id: "batch-a", status: 200, body: '{"code":200,"n":1}', replayed: false },
      { id: "batch-b", status: 409, body: '{"code":409}', replayed: true },
    ]);
    expect(await first).toEqual({ id: "batch-a", status: 200, body: '{"code":200,"n":1}', replayed: false });
    expect(await second).toEqual({ id: "batch-b", status: 409, body: '{"code":409}', replayed: true });
    expect(channel.pending).toBe(0);
  });

  it("answers for several processes go out as one message per reply channel, each to its own", async () => {
    const otherSubscriber = createRedis({ url: inject("redisUrl") }, "reply-test-sub-2", {
      subscriber: true,
    });
    const other = new ReplyChannel(otherSubscriber, `${prefix}:reply:gw-other`);
    await other.open();
    try {
      const mine = channel.expect("mine", 5_000);
      const theirs = other.expect("theirs", 5_000);
      const messages: string[] = [];
      const spy = createRedis({ url: inject("redisUrl") }, "reply-test-spy", { subscriber: true });
      spy.on("message", (_channel: string, message: string) => messages.push(message));
      await spy.subscribe(channel.channel);
      await publishReplies(redis, [
        { replyTo: channel.channel, reply: { id: "mine", status: 200, body: "{}", replayed: false } },
        { replyTo: other.channel, reply: { id: "theirs", status: 402, body: "{}", replayed: false } },
        { replyTo: channel.channel, reply: { id: "mine-2", status: 409, body: "{}", replayed: true } },
      ]);
      expect((await mine)?.status).toBe(200);
      expect((await theirs)?.status).toBe(402);
      await eventually(async () => (messages.length > 0 ? true : undefined));
      // Both of this channel's answers travelled in one message, in the order given.
      expect(messages.map((message) => JSON.parse(message).map((reply: OutcomeReply) => reply.id))).toEqual([
        ["mine", "mine-2"],
      ]);
      spy.disconnect();
    } finally {
      await other.close();
      otherSubscriber.disconnect();
    }
  });

  it("a reply that never comes resolves as undefined at the deadline and leaves nothing behind", async () => {
    const started = performance.now();
    expect(await channel.expect("job-lost", 150)).toBeUndefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(channel.pending).toBe(0);
    // A late reply for it is ignored.
    await publishTo(channel.channel, [{ id: "job-lost", status: 200, body: "{}", replayed: false }]);
    expect(channel.pending).toBe(0);
  });

  it("ignores malformed messages and replies for other ids", async () => {
    const waiting = channel.expect("job-2", 5_000);
    await redis.publish(channel.channel, "not json");
    await publishTo(channel.channel, [
      {
        id: "someone-else",
        status: 200,
        body: "{}",
        replayed: false,
      },
    ]);
    await publishTo(channel.channel, [
      {
        id: "job-2",
        status: 402,
        body: '{"code":402}',
        replayed: true,
      },
    ]);
    expect((await waiting)?.status).toBe(402);
  });
});

describe("ReplyChannel across a reconnect", () => {
  it("subscribes again when its connection comes back, so replies keep arriving", async () => {
    // Drop the subscriber's connection from the server side, as a network blip would.
    const list = String(await redis.client("LIST"));
    const id = list
      .split("\n")
      .find((line) => line.includes(" name=reply-test-sub "))
      ?.match(/id=(\d+)/)?.[1];
    expect(id).toBeDefined();
    await redis.client("KILL", "ID", String(id));
    await eventually(async () =>
      (await redis.pubsub("NUMSUB", channel.channel))[1] === 1 ? true : undefined,
    );
    const waiting = channel.expect("after-reconnect", 5_000);
    await publishTo(channel.channel, [
      {
        id: "after-reconnect",
        status: 200,
        body: "{}",
        replayed: false,
      },
    ]);
    expect((await waiting)?.status).toBe(200);
  });
});

describe("PartitionQueues", () => {
  it("gives every partition a global concurrency of 1", async () => {
    const queues = new PartitionQueues(redis, prefix, 4);
    await queues.enforceSerialization();
    expect(await Promise.all(queues.queues.map((queue) => queue.getGlobalConcurrency()))).toEqual([
      1, 1, 1, 1,
    ]);
    await queues.close();
  });
});
