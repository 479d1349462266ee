import { type LedgerJob, ledgerJobOptions, redisNames } from "@wallet/contracts/jobs";
import { Queue } from "bullmq";
import { shortEventStream } from "./event-stream.ts";
import type { RedisClient } from "./redis.ts";

/**
 * The ledger's partition queues. Each has BullMQ global concurrency 1: across every worker
 * process, one job of a partition runs at a time, in arrival order, and a player always maps to
 * the same partition. That is the per-player serialization.
 */
export class PartitionQueues {
  readonly queues: Queue<LedgerJob>[];

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    readonly count: number,
  ) {
    const names = redisNames(prefix);
    this.queues = Array.from(
      { length: count },
      (_, partition) =>
        new Queue<LedgerJob>(names.ledgerQueue(partition), {
          connection: redis,
          prefix: names.bullPrefix(names.ledgerQueue(partition)),
          ...shortEventStream,
        }),
    );
  }

  /**
   * Idempotent; every process calls it at boot and workers every few heartbeats (a Redis that lost
   * its data loses both settings). It first claims the partition count, and throws if this prefix
   * already runs with another: two counts at once would put one player's callbacks on two partitions.
   * `jobsAtOnce` is 1 but under a planted bug (the worker's test-only `early-partition-unlock`).
   */
  async enforceSerialization(jobsAtOnce = 1): Promise<void> {
    await this.claimCount();
    await Promise.all(this.queues.map((queue) => queue.setGlobalConcurrency(jobsAtOnce)));
  }

  /** Records this count if none is recorded; throws `PartitionCountMismatch` if another one is. */
  async claimCount(): Promise<void> {
    const key = redisNames(this.prefix).partitionCount;
    await this.redis.set(key, String(this.count), "NX");
    const recorded = Number(await this.redis.get(key));
    if (recorded !== this.count) throw new PartitionCountMismatch(this.count, recorded);
  }

  /** Jobs not yet finished on each partition: waiting, running or delayed. */
  async unfinished(): Promise<number[]> {
    return Promise.all(
      this.queues.map(async (queue) => {
        const counts = await queue.getJobCounts(
          "waiting",
          "active",
          "delayed",
          "prioritized",
          "waiting-children",
        );
        return Object.values(counts).reduce((sum, n) => sum + n, 0);
      }),
    );
  }

  async enqueue(partition: number, jobId: string, job: LedgerJob): Promise<void> {
    const queue = this.queues[partition];
    if (!queue) throw new Error(`no partition ${partition} of ${this.count}`);
    await queue.add("calls", job, { ...ledgerJobOptions, jobId });
  }

  /** Jobs waiting on each partition (index = partition), for the queue-depth gauge. */
  depths(): Promise<number[]> {
    return Promise.all(this.queues.map((queue) => queue.getWaitingCount()));
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}

/** This process was configured with another LEDGER_PARTITIONS than the one its Redis prefix runs with. */
export class PartitionCountMismatch extends Error {
  constructor(
    readonly configured: number,
    readonly recorded: number,
  ) {
    super(
      `LEDGER_PARTITIONS is ${configured} but this Redis prefix runs with ${recorded} partitions; ` +
        "change it with `pnpm partitions set` (docs/scaling.md, changing the partition count)",
    );
    this.name = "PartitionCountMismatch";
  }
}
