import { randomUUID } from "node:crypto";
import type { TestLedger } from "@wallet/ledger/testing/test-ledger";
import { deleteKeysUnder } from "@wallet/queue/delete-prefix";
import { createRedis } from "@wallet/queue/redis";
import { SideEffectQueues } from "@wallet/queue/side-effect-queues";
import { createLogger } from "@wallet/telemetry/logger";
import { outboxPublisher, startOutboxRelay } from "../outbox.relay.ts";
import { startSideEffectWorkers } from "../side-effects.worker.ts";
import { quietWorkerMetrics } from "./quiet-metrics.ts";

/**
 * TEST HELPER: the worker's side-effect path in-process, on a test ledger and a Redis queue prefix
 * of its own: the real relay (turns 20 ms apart; none with `relay: false`, for a test that claims and
 * publishes itself through `publisher`) and the four consumers (`concurrency` jobs at once each, 1 by
 * default), with the worker's metrics registry to read the counters they move (`value`) and the log
 * lines they wrote (`lines`).
 */
export function startSideEffectPath(
  ledger: TestLedger,
  redisUrl: string,
  options: {
    name: string;
    sweepEveryMs: number;
    sweepAgeSeconds: number;
    relay?: boolean;
    concurrency?: number;
  },
) {
  const prefix = `test-${randomUUID().slice(0, 12)}`;
  const redis = createRedis({ url: redisUrl }, options.name);
  const queues = new SideEffectQueues(redis, prefix);
  const metrics = quietWorkerMetrics();
  const lines: string[] = [];
  const logger = createLogger(options.name, "info", { write: (line: string) => void lines.push(line) });
  const relayDeps = {
    ctx: ledger.ctx,
    queues,
    logger,
    metrics,
    intervalMs: 20,
    batchSize: 500,
    sweepEveryMs: options.sweepEveryMs,
    sweepAgeSeconds: options.sweepAgeSeconds,
    crashAt: async () => {},
  };
  const relay = options.relay === false ? undefined : startOutboxRelay(relayDeps);
  const consumers = startSideEffectWorkers({
    ctx: ledger.ctx,
    redis,
    prefix,
    queues,
    logger,
    metrics,
    concurrency: options.concurrency ?? 1,
    lockMs: 5_000,
    stallCheckMs: 1_000,
    maxAttempts: 5,
    crashAt: async () => {},
  });
  return {
    lines,
    /** What a relay does with a claim (`outboxPublisher`), on this path's queues and metrics. */
    publisher: outboxPublisher(relayDeps),
    /** A metric's value in the sample whose labels include `labels` (undefined: no such sample yet). */
    value: async (name: string, labels: Record<string, string> = {}) => {
      const metric = await metrics.registry.getSingleMetric(name)?.get();
      return metric?.values.find((found) =>
        Object.entries(labels).every(([key, label]) => found.labels[key] === label),
      )?.value;
    },
    stop: async () => {
      await relay?.stop();
      await Promise.all(consumers.map((consumer) => consumer.close()));
      await queues.close();
      await deleteKeysUnder(redisUrl, prefix);
      redis.disconnect();
    },
  };
}
