import { z } from "zod";

/** The four callbacks, as job operations. */
export const callbackOps = ["auth", "withdraw", "deposit", "balance"] as const;
export type CallbackOp = (typeof callbackOps)[number];
/** Everything a ledger partition runs: the callbacks, and the operator's cashier adjustments. */
export const ledgerOps = [...callbackOps, "adjust"] as const;
export type LedgerOp = (typeof ledgerOps)[number];

/**
 * A ledger job: one verified callback for the worker to run. `deadline` is in Redis server time
 * (ms), the clock gateway and worker share, so skew between their own clocks does not matter.
 */
export const ledgerJob = z.object({
  op: z.enum(ledgerOps),
  tenantId: z.number().int().positive(),
  rawBody: z.string(),
  bodySha256: z.string().regex(/^[0-9a-f]{64}$/),
  deadline: z.number().int(),
  replyTo: z.string().min(1),
  /** When the job was enqueued, in Redis server time (ms): the worker measures queue wait from it. */
  enqueuedAt: z.number().int().optional(),
  /** W3C trace context of the producer's span: the worker's span continues the same trace. */
  traceparent: z.string().optional(),
});
export type LedgerJob = z.infer<typeof ledgerJob>;

/** What the worker publishes on the gateway's reply channel. */
export const ledgerReply = z.object({
  id: z.string(),
  status: z.number().int(),
  body: z.string(),
  replayed: z.boolean(),
});
export type LedgerReply = z.infer<typeof ledgerReply>;

export const ledgerJobOptions = {
  /** No BullMQ retries: the platform's retry plus idempotency is the retry. */
  attempts: 1,
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
} as const;

/** Redis names, all under one prefix so tests and deployments can share a server. */
export function redisNames(prefix: string) {
  return {
    /**
     * The BullMQ prefix of one queue. Its hash tag (`{queue}`) puts all of that queue's keys in one
     * Redis Cluster slot, as BullMQ's multi-key scripts need, while different queues (the ledger
     * partitions above all) hash to different slots and so spread over the masters. Keys read
     * `wallet:bull:{ledger-7}:ledger-7:wait`; on a single server the tag is just part of the name.
     */
    bullPrefix: (queue: string) => `${prefix}:bull:{${queue}}`,
    ledgerQueue: (partition: number) => `ledger-${partition}`,
    replyChannel: (gatewayId: string) => `${prefix}:reply:${gatewayId}`,
    workersHash: `${prefix}:workers`,
    /** The partition count this prefix runs with, claimed by the first process (see docs/scaling.md). */
    partitionCount: `${prefix}:partitions`,
  };
}
