import type { z } from "zod";
import { roundReport, type SideEffectTopic, sideEffectJob } from "./side-effects.ts";

/** Options of every side-effect job and report: retried with backoff, removed once done, failures kept a week. */
export const sideEffectJobOptions = {
  attempts: 10,
  backoff: { type: "exponential", delay: 500 },
  // Nothing reads a finished job (its receipt in MySQL is the record), and the reporting team's
  // consumer completes a job once it has the report.
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3_600, count: 10_000 },
} as const;

interface QueueEntry {
  queue: string;
  /** The job's data; the producer's input type and the consumer's parsed type both come from it. */
  job: z.ZodType;
  jobOptions: typeof sideEffectJobOptions;
}

/**
 * Every side-effect queue in one table: its name, its job's schema and its options. The relay
 * publishes with it (`SideEffectQueues`), the consumers parse with it, and the reporting team's
 * JSON Schemas (`docs/schemas`) are written from the same shapes.
 */
export const sideEffectCatalog = {
  loyalty: { queue: "side-effects-loyalty", job: sideEffectJob, jobOptions: sideEffectJobOptions },
  tournaments: { queue: "side-effects-tournaments", job: sideEffectJob, jobOptions: sideEffectJobOptions },
  reporting: { queue: "side-effects-reporting", job: sideEffectJob, jobOptions: sideEffectJobOptions },
  rg: { queue: "side-effects-rg", job: sideEffectJob, jobOptions: sideEffectJobOptions },
} as const satisfies Record<SideEffectTopic, QueueEntry>;

/** The queue the reporting team consumes: one job per report, its id the report's event id. */
export const reportingQueue = {
  queue: "reporting",
  name: "round-report",
  job: roundReport,
  jobOptions: sideEffectJobOptions,
} as const satisfies QueueEntry & { name: string };

/** What a producer hands a topic's queue, and what its consumer reads back. */
export type SideEffectJobInput<T extends SideEffectTopic> = z.input<(typeof sideEffectCatalog)[T]["job"]>;
export type SideEffectJobData<T extends SideEffectTopic> = z.output<(typeof sideEffectCatalog)[T]["job"]>;
