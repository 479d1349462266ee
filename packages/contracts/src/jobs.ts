import { z } from "zod";
import { closeRefusal } from "./close-refusal.ts";

/** The four callbacks, as job operations. */
export const callbackOps = ["auth", "withdraw", "deposit", "balance"] as const;
export type CallbackOp = (typeof callbackOps)[number];
/** Everything a ledger partition runs: the callbacks, and the operator's cashier adjustments. */
export const ledgerOps = [...callbackOps, "adjust"] as const;
export type LedgerOp = (typeof ledgerOps)[number];

/** A close the intake read and stored in pieces (`ledgerCall.storedClose`). */
export const storedClose = z.object({
  roundId: z.string().min(1),
  providerTxId: z.string().min(1),
  game: z.string().min(1),
  currency: z.string().optional(),
  betCount: z.number().int().nonnegative(),
});
export type StoredClose = z.infer<typeof storedClose>;

/**
 * One verified callback (or operator adjustment) for the ledger. `deadline` is in Redis server time
 * (ms), the clock gateway and worker share, so skew between their own clocks does not matter. `id`
 * names its reply.
 */
export const ledgerCall = z.object({
  id: z.string().min(1),
  op: z.enum(ledgerOps),
  tenantId: z.number().int().positive(),
  rawBody: z.string(),
  bodySha256: z.string().regex(/^[0-9a-f]{64}$/),
  deadline: z.number().int(),
  /** When the call was handed to the queue, in Redis server time (ms): the worker measures queue wait from it. */
  enqueuedAt: z.number().int().optional(),
  /** W3C trace context of the call's own request: the worker's spans continue its trace. */
  traceparent: z.string().optional(),
  /**
   * A CLOSE_ROUND the gateway refused before its schema (not UTF-8, not JSON, a strict-JSON problem
   * in a field the close reads): the ledger stores this refusal as given, since its own reading of
   * the body (JSON.parse) could not see what was wrong and might even take it.
   */
  closeRefusal: closeRefusal.optional(),
  /**
   * A CLOSE_ROUND past the ordinary body limit, already read and judged by the close intake, its
   * arrays already in `close_pieces` under `bodySha256`: what is left is to close its round, which
   * this call does on the round's partition like any close. `rawBody` then carries these fields only.
   */
  storedClose: storedClose.optional(),
});
export type LedgerCall = z.infer<typeof ledgerCall>;

/**
 * A ledger job: the calls one process had waiting for one partition, in arrival order. A process
 * keeps one job per partition in flight and gathers what arrives meanwhile into the next, so under
 * load a job carries several callbacks and the queue's cost is paid once for all of them.
 */
export const ledgerJob = z.object({
  calls: z.array(ledgerCall).min(1),
  /** The reply channel of the process that enqueued the job. */
  replyTo: z.string().min(1),
  /** W3C trace context of the producer's span: the worker's job span continues it. */
  traceparent: z.string().optional(),
});
export type LedgerJob = z.infer<typeof ledgerJob>;

/**
 * The job shape before calls were gathered: one callback, replied to under the BullMQ job id. A
 * worker still reads it, so gateways and workers can be upgraded one at a time. When it can go: once
 * no gateway from before gathered jobs (7afe622, 2026-11-23) runs. A ledger job lives only until its
 * deadline (seconds, never retried), so nothing of this shape outlives the last such gateway.
 */
const singleCallJob = ledgerCall.omit({ id: true }).extend({ replyTo: z.string().min(1) });

/** A job's data as a worker reads it, either shape. Throws (a ZodError) on anything else. */
export function readLedgerJob(data: unknown, jobId: string): LedgerJob {
  const current = ledgerJob.safeParse(data);
  if (current.success) return current.data;
  const { replyTo, traceparent, ...call } = singleCallJob.parse(data);
  return { calls: [{ ...call, id: jobId, traceparent }], replyTo, traceparent };
}

/** One call's outcome (the ledger's `Outcome` and the call's id), as the worker sends it back to the process that enqueued it. */
export const outcomeReply = z.object({
  id: z.string(),
  status: z.number().int(),
  body: z.string(),
  replayed: z.boolean(),
});
export type OutcomeReply = z.infer<typeof outcomeReply>;

/**
 * What the worker publishes on a reply channel: every answer of one batch for that process, in one
 * message (one PUBLISH per process per batch, however many calls it held).
 */
export const outcomeReplies = z.array(outcomeReply);

/**
 * A CLOSE_ROUND past the ordinary body limit, for the close intake (`apps/worker/src/close-intake/`):
 * its bytes wait in Redis as a list of pieces (`redisNames.closeBody(id)`), never in the job, and
 * the intake reads, judges and stores them a piece at a time, off every partition, answering on
 * `replyTo` under `id`. Not refused for its deadline: a close's work is finished however long it takes.
 */
export const closeIntakeJob = z.object({
  id: z.string().min(1),
  tenantId: z.number().int().positive(),
  bodySha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
  pieces: z.number().int().positive(),
  /** The sender's ordinary body limit: what a body that proves not to be a close is answered 413 over. */
  bodyLimitBytes: z.number().int().positive(),
  /** When the sender stops waiting (Redis time, ms): past it the answer is stored for the resend. */
  deadline: z.number().int(),
  enqueuedAt: z.number().int(),
  replyTo: z.string().min(1),
  traceparent: z.string().optional(),
});
export type CloseIntakeJob = z.infer<typeof closeIntakeJob>;

/** Each close takes its own job; a failed one is kept a while to be looked at (its bytes expire). */
export const closeIntakeJobOptions = {
  attempts: 1,
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
} as const;

export const ledgerJobOptions = {
  /** No BullMQ retries: the platform's retry plus idempotency is the retry. */
  attempts: 1,
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
} as const;

/** Redis names, all under one prefix so tests and deployments can share a server. */
export function redisNames(prefix: string) {
  const ledgerQueue = (partition: number) => `ledger-${partition}`;
  return {
    /**
     * The BullMQ prefix of one queue. Its hash tag (`{queue}`) puts all of that queue's keys in one
     * Redis Cluster slot, as BullMQ's multi-key scripts need, while different queues (the ledger
     * partitions above all) hash to different slots and so spread over the masters. Keys read
     * `wallet:bull:{ledger-7}:ledger-7:wait`; on a single server the tag is just part of the name.
     */
    bullPrefix: (queue: string) => `${prefix}:bull:{${queue}}`,
    ledgerQueue,
    replyChannel: (gatewayId: string) => `${prefix}:reply:${gatewayId}`,
    workersHash: `${prefix}:workers`,
    /** The partition count this prefix runs with, claimed by the first process (see docs/scaling.md). */
    partitionCount: `${prefix}:partitions`,
    closeIntakeQueue: "close-intake",
    /** A large close's bytes, a list of pieces, until the intake has read them (`closeIntakeJob`). */
    closeBody: (callId: string) => `${prefix}:close-body:${callId}`,
    /**
     * A partition's acknowledgement log: a stream of the callbacks the workers answered 200, written
     * before each answer is published (`packages/queue/src/ack-log.ts`). Tagged like the partition's
     * queue (`{ledger-7}`), so on a Redis Cluster it shares the queue's slot.
     */
    ackLog: (partition: number) => `${prefix}:acks:{${ledgerQueue(partition)}}`,
    /** When the acknowledgement log began (Redis ms): from then on every callback answered 200 is in it. */
    ackLogSince: `${prefix}:acks:since`,
    /** A large close's answer, for the platform's resends of the same bytes (`close-intake.ts`). */
    closeAnswer: (tenantId: number, bodySha256: string) => `${prefix}:close-answer:${tenantId}:${bodySha256}`,
  };
}
