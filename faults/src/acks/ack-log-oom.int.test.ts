import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { redisNames } from "@wallet/contracts/jobs";
import { AckLog } from "@wallet/queue/ack-log";
import { createRedis, type RedisClient } from "@wallet/queue/redis";
import { eventually } from "@wallet/system-tests/harness/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServer } from "../servers/redis-server.ts";

// A Redis out of memory under `noeviction` refuses the acknowledgement log's entry, and then no answer
// of its batch may be published: on a Redis of the file's own, since only there may a test lower
// `maxmemory`, which `pnpm test`'s shared server must never see.
let dir = "";
let server: RedisServer;
let redis: RedisClient;
let spy: RedisClient;
const prefix = "oom";
const channel = `${prefix}:reply:gw-1`;
const published: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(`${tmpdir()}/wallet-ack-oom-`);
  server = await RedisServer.start(dir);
  redis = createRedis({ url: server.url() }, "ack-oom");
  spy = createRedis({ url: server.url() }, "ack-oom-spy", { subscriber: true });
  spy.on("message", (_channel: string, message: string) => published.push(message));
  await spy.subscribe(channel);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  spy?.disconnect();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const answer = (id: string) => ({
  replyTo: channel,
  reply: { id, status: 200, body: "{}", replayed: false },
  partition: 0,
  acknowledged: {
    operatorId: 1,
    providerTxId: id,
    action: "BET",
    roundId: "r-1",
    userId: "u-1",
    amount: "-500",
    replayed: false,
  },
});

describe("the acknowledgement log on a Redis out of memory", () => {
  it("publishes no answer while Redis refuses the entry, and the answer and its entry once memory is back", async () => {
    const [seconds] = await redis.time();
    const log = new AckLog(redis, prefix, { seconds: 60, clock: { now: () => Number(seconds) * 1000 } });
    const used = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))?.[1]);
    await redis.config("SET", "maxmemory-policy", "noeviction");
    await redis.config("SET", "maxmemory", String(used - 1));

    await expect(log.send([answer("tx-1")])).rejects.toThrow(/^OOM command not allowed/);
    // A plain PUBLISH still goes out (it adds no data): the answer was held back by the script alone.
    await redis.publish(channel, "plain");
    await eventually(async () => (published.length > 0 ? true : undefined), 5_000, "the plain message");
    expect(published).toEqual(["plain"]);
    expect(await redis.exists(redisNames(prefix).ackLog(0))).toBe(0);

    await redis.config("SET", "maxmemory", "0");
    await log.send([answer("tx-1")]);
    await eventually(async () => (published.length > 1 ? true : undefined), 5_000, "the answer");
    expect(JSON.parse(published[1] ?? "")).toEqual([
      { id: "tx-1", status: 200, body: "{}", replayed: false },
    ]);
    const entries = await redis.xrange(redisNames(prefix).ackLog(0), "-", "+");
    expect(entries.map(([, fields]) => fields[3])).toEqual(['[[1,"tx-1","BET","r-1","u-1","-500",0]]']);
  });
});
