import { redisNames } from "@wallet/contracts/jobs";
import { type RoundReport, type SideEffectTopic, sideEffectTopics } from "@wallet/contracts/side-effects";
import { Queue } from "bullmq";
import type { RedisClient } from "./redis.ts";

/** BullMQ refuses ':' in job ids; this escaping keeps ids readable and distinct ids distinct. */
export function jobIdFor(eventId: string): string {
  return eventId.replaceAll("%", "%25").replaceAll(":", "%3A");
}

export const sideEffectQueueName = (topic: SideEffectTopic) => `side-effects-${topic}`;
/** The queue the reporting team consumes; its job ids are the reports' event ids. */
export const reportingQueueName = "reporting";

const sideEffectJobOptions = {
  attempts: 10,
  backoff: { type: "exponential", delay: 500 },
  // Completed jobs are kept a while: republishing an event within that time is a no-op in BullMQ.
  removeOnComplete: { age: 3_600 },
  removeOnFail: { age: 7 * 24 * 3_600 },
} as const;

/** The four side-effect queues and the reporting queue, under one Redis prefix. */
export class SideEffectQueues {
  private readonly topics: Map<SideEffectTopic, Queue>;
  private readonly reporting: Queue;

  constructor(redis: RedisClient, prefix: string) {
    const queue = (name: string) =>
      new Queue(name, { connection: redis, prefix: redisNames(prefix).bullPrefix(name) });
    this.topics = new Map(sideEffectTopics.map((topic) => [topic, queue(sideEffectQueueName(topic))]));
    this.reporting = queue(reportingQueueName);
  }

  /** Deterministic job id per (topic, event): publishing twice while the job exists adds nothing. */
  async publish(topic: SideEffectTopic, eventId: string, payload: unknown): Promise<void> {
    const queue = this.topics.get(topic);
    if (!queue) throw new Error(`unknown side-effect topic ${topic}`);
    await queue.add(topic, payload, { ...sideEffectJobOptions, jobId: jobIdFor(eventId) });
  }

  async publishReport(report: RoundReport): Promise<void> {
    await this.reporting.add("round-report", report, {
      ...sideEffectJobOptions,
      jobId: jobIdFor(report.eventId),
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.topics.values(), this.reporting].map((queue) => queue.close()));
  }
}
