import { closeIntakeJob, redisNames } from "@wallet/contracts/jobs";
import { publishReplies } from "@wallet/queue/reply-channel";
import { contextFrom, inSpan, markFailed, queueSpanAttributes, SpanKind } from "@wallet/telemetry/spans";
import { type Job, Worker } from "bullmq";
import { type CloseIntakeDeps, takeClose } from "./close-intake.ts";
import type { WorkerMetrics } from "./metrics.ts";

/**
 * The close intake's BullMQ wiring: `concurrency` large closes at once per worker, none on a
 * partition. Its event loop is the worker's own, shared with the partitions, so the intake reads a
 * close one piece (32 KiB) per turn (`takeClose`); its job lock is long (a close may take seconds
 * on a busy machine) and, since no turn holds the loop, renewed in time: taken back only when its
 * worker died, at most once.
 */
export function startCloseIntake(
  deps: CloseIntakeDeps & { metrics: WorkerMetrics; concurrency: number },
): Worker {
  const names = redisNames(deps.prefix);
  const queue = names.closeIntakeQueue;
  const worker = new Worker(
    queue,
    async (job: Job) => {
      const data = closeIntakeJob.parse(job.data);
      const started = performance.now();
      await inSpan(
        `${queue} process`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextFrom({ traceparent: data.traceparent }),
          attributes: {
            ...queueSpanAttributes("process", queue, String(job.id)),
            "wallet.body_bytes": data.bytes,
          },
        },
        async (span) => {
          const { outcome, result } = await takeClose(deps, data);
          if (result === "failed") markFailed(span, "close intake failed");
          deps.metrics.closeIntake.inc({ result });
          deps.metrics.closeIntakeDuration.observe({ result }, (performance.now() - started) / 1000);
          const { status, body, replayed } = outcome;
          await publishReplies(deps.redis, [
            { replyTo: data.replyTo, reply: { id: data.id, status, body, replayed } },
          ]);
        },
      );
    },
    {
      connection: deps.redis,
      prefix: names.bullPrefix(queue),
      concurrency: deps.concurrency,
      lockDuration: 30_000,
      maxStalledCount: 1,
    },
  );
  worker.on("error", (error) => deps.logger.error({ err: error }, "close intake worker error"));
  worker.on("stalled", (jobId) => {
    deps.metrics.jobsStalled.inc({ queue: "close-intake" });
    deps.logger.warn({ jobId }, "close intake job stalled; taken back");
  });
  return worker;
}
