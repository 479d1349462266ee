import { redisNames } from "@wallet/contracts/jobs";
import { type SideEffectJobInput, sideEffectCatalog } from "@wallet/contracts/side-effect-catalog";
import { type CloseRoundEvent, type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import { Queue } from "bullmq";
import { shortEventStream } from "./event-stream.ts";
import type { RedisClient } from "./redis.ts";
import { jobIdFor, ReportingQueue, reportingQueueName } from "./reporting-queue.ts";

export { jobIdFor, reportingQueueName };

export const sideEffectQueueName = (topic: SideEffectTopic) => sideEffectCatalog[topic].queue;

/** One side effect owed by a closed round, as the relay publishes it: an event of its topic's job. */
export interface SideEffectEvent {
  topic: SideEffectTopic;
  eventId: string;
  payload: CloseRoundEvent;
}

/** The four side-effect queues and the reporting queue, under one Redis prefix. */
export class SideEffectQueues {
  private readonly topics: Map<SideEffectTopic, Queue>;
  readonly reporting: ReportingQueue;

  constructor(redis: RedisClient, prefix: string) {
    const queue = (name: string) =>
      new Queue(name, {
        connection: redis,
        prefix: redisNames(prefix).bullPrefix(name),
        ...shortEventStream,
      });
    this.topics = new Map(sideEffectTopics.map((topic) => [topic, queue(sideEffectQueueName(topic))]));
    this.reporting = new ReportingQueue(queue(reportingQueueName));
  }

  /**
   * ONE job per topic carrying all of that topic's events (`{ events: [...] }`): a BullMQ job costs
   * far more than applying an event, so a relay turn costs at most four jobs however many rounds it
   * carries. `batchId` (unique per relay claim) makes the job id; an event delivered in two batches
   * (a sweep's republish) is a counted no-op for its consumer (its receipt).
   */
  async publish(events: SideEffectEvent[], batchId: string): Promise<void> {
    const byTopic = new Map<SideEffectTopic, CloseRoundEvent[]>();
    for (const event of events) {
      const payloads = byTopic.get(event.topic);
      if (payloads) payloads.push(event.payload);
      else byTopic.set(event.topic, [event.payload]);
    }
    await Promise.all(
      [...byTopic].map(([topic, payloads]) => {
        const queue = this.topics.get(topic);
        if (!queue) throw new Error(`unknown side-effect topic ${topic}`);
        const data: SideEffectJobInput<typeof topic> = { events: payloads };
        return queue.add(topic, data, { ...sideEffectCatalog[topic].jobOptions, jobId: jobIdFor(batchId) });
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.topics.values(), this.reporting.queue].map((queue) => queue.close()));
  }
}
