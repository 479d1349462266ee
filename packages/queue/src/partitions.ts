import { type LedgerJob, ledgerJobOptions, redisNames } from "@wallet/contracts/jobs";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";

/**
 * The ledger's partition queues. Each has BullMQ global concurrency 1: across every worker
 * process, one job of a partition runs at a time, in arrival order, and a player always maps to
 * the same partition. That is the per-player serialization.
 */
export class PartitionQueues {
  readonly queues: Queue<LedgerJob>[];

  constructor(
    redis: Redis,
    prefix: string,
    readonly count: number,
  ) {
    const names = redisNames(prefix);
    this.queues = Array.from(
      { length: count },
      (_, partition) =>
        new Queue<LedgerJob>(names.ledgerQueue(partition), { connection: redis, prefix: names.bullPrefix }),
    );
  }

  /** Idempotent; both gateways and workers call it at boot. */
  async enforceSerialization(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.setGlobalConcurrency(1)));
  }

  async enqueue(partition: number, jobId: string, job: LedgerJob): Promise<void> {
    const queue = this.queues[partition];
    if (!queue) throw new Error(`no partition ${partition} of ${this.count}`);
    await queue.add("callback", job, { ...ledgerJobOptions, jobId });
  }

  /** Jobs waiting on each partition (index = partition), for the queue-depth gauge. */
  depths(): Promise<number[]> {
    return Promise.all(this.queues.map((queue) => queue.getWaitingCount()));
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
