import { randomUUID } from "node:crypto";
import { type LedgerJob, type OutcomeReply, readLedgerJob, redisNames } from "@wallet/contracts/jobs";
import { type Job, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deleteKeysUnder } from "./delete-prefix.ts";
import { type OpenDispatcher, openDispatcher } from "./open-dispatcher.ts";
import { createRedis } from "./redis.ts";
import { publishReplies } from "./reply-channel.ts";

const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "dispatcher-test");
let opened: OpenDispatcher;
let worker: Worker;
/** Every job the fake ledger took, in order, and a gate that holds its answers until a test opens it. */
const taken: LedgerJob[] = [];
let release: () => void = () => {};
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  opened = await openDispatcher({
    redis: { url: inject("redisUrl") },
    prefix,
    partitions: 2,
    clientId: "gw-test",
  });
  const queue = redisNames(prefix).ledgerQueue(0);
  // A stand-in for the worker: answers each call with its own id, once the test lets it.
  worker = new Worker(
    queue,
    async (job: Job) => {
      const data = readLedgerJob(job.data, String(job.id));
      taken.push(data);
      await gate;
      const replies: OutcomeReply[] = data.calls.map((call) => ({
        id: call.id,
        status: 200,
        body: JSON.stringify({ echo: call.rawBody }),
        replayed: false,
      }));
      await publishReplies(
        redis,
        replies.map((reply) => ({ replyTo: data.replyTo, reply })),
      );
    },
    {
      connection: createRedis({ url: inject("redisUrl") }, "dispatcher-test-worker"),
      prefix: redisNames(prefix).bullPrefix(queue),
      drainDelay: 0.1,
    },
  );
});
afterAll(async () => {
  await worker.close();
  await opened.close();
  redis.disconnect();
  await deleteKeysUnder(inject("redisUrl"), prefix);
});

const callFor = (rawBody: string) =>
  opened.dispatcher.call({
    partition: 0,
    budgetMs: 5_000,
    job: { op: "balance", tenantId: 1, rawBody, bodySha256: "0".repeat(64) },
  });

describe("Dispatcher", () => {
  it("keeps one job per partition in flight and sends what gathers meanwhile as the next job, in arrival order", async () => {
    taken.length = 0;
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const first = callFor("first");
    // Wait until the fake worker holds the first job, then send four more for the same partition.
    while (taken.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const later = ["second", "third", "fourth", "fifth"].map(callFor);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken.map((job) => job.calls.map((call) => call.rawBody))).toEqual([["first"]]);
    expect(opened.dispatcher.held).toBe(4);
    gate = Promise.resolve();
    release();
    const answers = await Promise.all([first, ...later]);
    expect(answers.map((answer) => answer && JSON.parse(answer.body).echo)).toEqual([
      "first",
      "second",
      "third",
      "fourth",
      "fifth",
    ]);
    expect(taken.map((job) => job.calls.map((call) => call.rawBody))).toEqual([
      ["first"],
      ["second", "third", "fourth", "fifth"],
    ]);
    expect(opened.dispatcher.held).toBe(0);
  });

  it("a call whose deadline passes while it waits for the partition is answered undefined and never sent", async () => {
    taken.length = 0;
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const first = callFor("slow");
    while (taken.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const impatient = opened.dispatcher.call({
      partition: 0,
      budgetMs: 100,
      job: { op: "balance", tenantId: 1, rawBody: "impatient", bodySha256: "0".repeat(64) },
    });
    expect(await impatient).toBeUndefined();
    const patient = callFor("patient");
    gate = Promise.resolve();
    release();
    expect((await first)?.status).toBe(200);
    expect((await patient)?.status).toBe(200);
    expect(taken.flatMap((job) => job.calls.map((call) => call.rawBody))).toEqual(["slow", "patient"]);
  });

  it("with nothing in flight a call leaves at once, alone", async () => {
    taken.length = 0;
    gate = Promise.resolve();
    expect((await callFor("lonely"))?.status).toBe(200);
    expect(taken.map((job) => job.calls.length)).toEqual([1]);
  });
});
