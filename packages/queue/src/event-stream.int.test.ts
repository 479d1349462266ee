import { randomUUID } from "node:crypto";
import { redisNames } from "@wallet/contracts/jobs";
import { roundReportEventId, sideEffectTopics } from "@wallet/contracts/side-effects";
import { afterAll, describe, expect, inject, it } from "vitest";
import { deleteKeysUnder } from "./delete-prefix.ts";
import { createRedis } from "./redis.ts";
import { reportingQueueName } from "./reporting-queue.ts";
import { type SideEffectEvent, SideEffectQueues, sideEffectQueueName } from "./side-effect-queues.ts";

const prefix = `test-${randomUUID().slice(0, 12)}`;
const redis = createRedis({ url: inject("redisUrl") }, "event-stream-test");
const queues = new SideEffectQueues(redis, prefix);
const eventsKey = (queue: string) => `${redisNames(prefix).bullPrefix(queue)}:${queue}:events`;

afterAll(async () => {
  await queues.close();
  await deleteKeysUnder(inject("redisUrl"), prefix);
  redis.disconnect();
});

describe("BullMQ event streams", () => {
  it("stay short on the side-effect and reporting queues however many jobs pass (nothing reads them)", async () => {
    const reports = Array.from({ length: 2_000 }, (_, index) => ({
      eventId: roundReportEventId(1, `r-${index}`),
      schemaVersion: 2 as const,
      operatorId: 1,
      roundId: `r-${index}`,
      game: "crashGame",
      closedAt: new Date().toISOString(),
      betCount: 0,
      byCurrency: [],
      reconciliation: "matched" as const,
    }));
    for (let start = 0; start < reports.length; start += 250)
      await queues.reporting.publish(reports.slice(start, start + 250));
    for (let batch = 0; batch < 300; batch++)
      await queues.publish(
        // The stream cap never reads a payload, so a stand-in one keeps the test short.
        sideEffectTopics.map((topic) => ({
          topic,
          eventId: `e-${batch}`,
          payload: { batch } as unknown as SideEffectEvent["payload"],
        })),
        `b-${batch}`,
      );

    const queuesOfOurs = [reportingQueueName, ...sideEffectTopics.map(sideEffectQueueName)];
    for (const queue of queuesOfOurs) {
      const meta = await redis.hget(
        `${redisNames(prefix).bullPrefix(queue)}:${queue}:meta`,
        "opts.maxLenEvents",
      );
      expect({ queue, meta }).toEqual({ queue, meta: "100" });
      // Trimming is approximate (whole stream nodes), so a little over 100; BullMQ's default keeps 10,000.
      expect(await redis.xlen(eventsKey(queue))).toBeLessThan(400);
    }
    expect(await queues.reporting.queue.getWaitingCount()).toBe(2_000); // the jobs themselves are all there
  });
});
