import { devTenants, tenantsJson } from "@wallet/contracts/tenants";
import { maxBatchCalls } from "@wallet/ledger/batch/requests";
import { servingDatabaseEnvShape } from "@wallet/ledger/serving-database";
import { maxPruneChunk, maxRelayBatch } from "@wallet/ledger/side-effects/outbox-queries";
import { partitionsEnvShape, redisEnvShape } from "@wallet/queue/redis-env";
import { tracingEnvShape } from "@wallet/telemetry/tracing-env";
import { z } from "zod";
import { plantedBugs } from "./planted-bugs.ts";
import { testCrashPoints } from "./test-crash-points.ts";

/** The worker's whole configuration, read once at boot; defaults are for local use only. */
export const workerEnvSchema = z
  .object({
    ...servingDatabaseEnvShape,
    DB_POOL_SIZE: z.coerce.number().int().min(1).default(16),
    ...redisEnvShape,
    TENANTS: tenantsJson.default(devTenants),
    ...partitionsEnvShape,
    SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(24 * 3600),
    /**
     * How long a ledger transaction that lost a conflict (a deadlock, a Galera abort, a TiDB write
     * conflict) is run again, after its five attempts, before its callbacks are answered 503
     * (`packages/ledger/src/conflict-retry.ts`). 0: the five attempts only. Keep it under the gateways'
     * CALLBACK_DEADLINE_MS (2500): past that the gateway has answered 503 already.
     */
    LEDGER_CONFLICT_RETRY_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
    /**
     * A partition's job lock; a killed worker's partition frees once it lapses and the next stalled
     * check (every JOB_STALL_CHECK_MS) runs, so these two bound the outage to a few seconds.
     */
    JOB_LOCK_MS: z.coerce.number().int().min(500).default(2000),
    JOB_STALL_CHECK_MS: z.coerce.number().int().min(200).default(1000),
    /**
     * How long an idle partition worker blocks before polling again. A partition's global
     * concurrency slot freed by another process does not always wake a blocked worker, so this
     * bounds the stall that can add to a callback's wait (BullMQ's default is 5 s).
     */
    JOB_POLL_MS: z.coerce.number().int().min(50).max(5_000).default(500),
    /**
     * Most calls one group-committed transaction takes. Each partition has one job in flight, but a
     * job carries every call its gateway gathered meanwhile, so under load a batch can reach this;
     * the calls past it wait for the next transaction.
     */
    LEDGER_MAX_BATCH: z.coerce.number().int().min(1).max(maxBatchCalls).default(256),
    /**
     * How long the acknowledgement log keeps each callback answered 200 (a Redis stream per partition,
     * written before each answer is published; docs/runbook.md, "After a database failover"): what
     * `pnpm rounds:at-risk` reads to name the rounds a lossy failover took, so it must be read within
     * this time. 0 writes no log. About 180 bytes of Redis memory per callback of the simulator's
     * shape (UUID ids; `pnpm bench:ack-log`, docs/performance.md): at 500 callbacks/s the
     * default 30 minutes is about 155 MiB.
     */
    ACK_LOG_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 3600)
      .default(1800),
    /**
     * CLOSE_ROUNDs past the ordinary body limit (64 KiB) one worker reads and stores at once (the
     * close intake, off every partition). Each holds at most its arrays' text in memory (about the
     * close's size) and its event-loop turns are one 32 KiB piece each.
     */
    CLOSE_INTAKE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** Side effects of closed rounds. */
    LOYALTY_POINTS_PER_1000: z.coerce.number().int().min(0).default(1),
    SIDE_EFFECT_CONSUMERS: z.enum(["on", "off"]).default("on"),
    /** Side-effect jobs (each a batch of rounds) one worker applies at once, per topic. */
    SIDE_EFFECT_CONCURRENCY: z.coerce.number().int().min(1).default(2),
    /**
     * The relay's pause after a turn that did not fill its batch: rounds closed meanwhile leave together
     * in the next turn's four jobs (a BullMQ job costs more than applying many events). Adds up to this
     * much to an effect's lag.
     */
    OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(10).default(100),
    /** Most outbox rows one relay turn claims (a turn publishes at most one job per topic). */
    OUTBOX_RELAY_BATCH: z.coerce.number().int().min(1).max(maxRelayBatch).default(500),
    OUTBOX_SWEEP_EVERY_MS: z.coerce.number().int().min(100).default(5_000),
    /** A published row with no applied effect after this long is republished (its job was lost). */
    OUTBOX_SWEEP_AGE_SECONDS: z.coerce.number().int().min(0).default(60),
    /**
     * A side effect that fails on its own this many times (a sweep apart: OUTBOX_SWEEP_AGE_SECONDS) is
     * dead: it stops being republished and waits, shown and alerted on, for `pnpm side-effects retry --dead`.
     */
    SIDE_EFFECT_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
    /** Applied outbox rows are deleted after this many days (the effects and receipts stay for good). */
    OUTBOX_RETENTION_DAYS: z.coerce.number().positive().default(7),
    /**
     * Rows deleted per statement: small, so no prune holds a lock long enough to slow a callback. The
     * outbox's DELETE takes at most 1,024 whatever this says (8 MiB of its largest rows: `outboxPruneRows`).
     */
    OUTBOX_PRUNE_CHUNK: z.coerce.number().int().min(1).max(maxPruneChunk).default(500),
    /**
     * Pause after each chunk. At 20 ms the pruner (2M rows due) raised the callbacks' p99 by 25-35%
     * (docs/performance.md); at 200 ms it deletes about 2,300 rows/s, several times the close rate one
     * worker can take (one row per close), and must stay above it.
     */
    OUTBOX_PRUNE_PAUSE_MS: z.coerce.number().int().min(0).default(200),
    /** How often the retention pass (outbox and the tables below pruned, reporting bound) runs. */
    RETENTION_EVERY_MS: z.coerce.number().int().min(100).default(60_000),
    /**
     * The operator API's audit trail (`operator_actions`) is deleted after this many days (0: kept for
     * good). 400: a year of audit with a month's margin for the yearly review that looks back on it.
     * Pruned with OUTBOX_PRUNE_CHUNK and OUTBOX_PRUNE_PAUSE_MS, as are the two below.
     */
    OPERATOR_ACTIONS_RETENTION_DAYS: z.coerce.number().min(0).default(400),
    /**
     * A revoked operator-API token is deleted this many days after its revocation (0: kept for good);
     * a live one never is. As long as the audit trail's: every token the trail names stays listed.
     */
    REVOKED_TOKENS_RETENTION_DAYS: z.coerce.number().min(0).default(400),
    /**
     * A refused CLOSE_ROUND, with its body, is deleted this many days after a manual close resolved it
     * (0: kept for good); an unresolved one never is (it is the round's only trace of its close). 90: a
     * quarter to settle the round with the platform; the manual close itself stays in the audit trail.
     */
    REFUSED_CLOSES_RETENTION_DAYS: z.coerce.number().min(0).default(90),
    /**
     * The reporting queue's bound: unread reports older than this, or beyond this many, are dropped
     * from Redis (they stay in MySQL; `pnpm side-effects republish` restores them).
     */
    REPORTING_MAX_AGE_HOURS: z.coerce.number().positive().default(72),
    REPORTING_MAX_LENGTH: z.coerce.number().int().min(1).default(500_000),
    /** Prometheus metrics on this port (0: any free port, logged at boot). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9101),
    /**
     * The address the metrics port (also /healthz and /readyz) binds; unset, every interface, as
     * Prometheus and the kubelet's probes reach it from outside the pod.
     */
    METRICS_HOST: z.string().min(1).optional(),
    /** TEST HOOK: crash (SIGKILL) at this step; refused unless NODE_ENV=test (`test-crash-points.ts`). */
    TEST_CRASH_POINT: z.enum(testCrashPoints).optional(),
    /**
     * TEST HOOK: a group-committed batch holding a BET into a round whose id starts with this waits
     * TEST_HOLD_BATCH_MS once it has read and locked, the window a slow batch (a lock wait) opens
     * (`test-crash-points.ts`); refused unless NODE_ENV=test.
     */
    TEST_HOLD_BATCH_ROUND: z.string().min(1).optional(),
    TEST_HOLD_BATCH_MS: z.coerce.number().int().min(1).default(1_000),
    /**
     * TEST HOOK: the close intake waits this long once it has read a large close, before it stores
     * anything: a close whose work outlasts its deadline (`close-intake.ts`); refused unless NODE_ENV=test.
     */
    TEST_HOLD_CLOSE_INTAKE_MS: z.coerce.number().int().min(1).optional(),
    /**
     * TEST HOOK: break one guarantee on purpose, so the fault campaign can show its checker catches it
     * (`planted-bugs.ts`, each value's comment says what it breaks); refused unless NODE_ENV=test.
     */
    TEST_PLANTED_BUG: z.enum(plantedBugs).optional(),
    NODE_ENV: z.string().optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ...tracingEnvShape,
    /** Set by npm and pnpm: the folder the user ran the command from (the CLIs resolve paths from it). */
    INIT_CWD: z.string().optional(),
  })
  .refine((env) => env.TEST_CRASH_POINT === undefined || env.NODE_ENV === "test", {
    path: ["TEST_CRASH_POINT"],
    message: "is a test hook that kills the worker; it is honoured only with NODE_ENV=test: unset it",
  })
  .refine((env) => env.TEST_HOLD_BATCH_ROUND === undefined || env.NODE_ENV === "test", {
    path: ["TEST_HOLD_BATCH_ROUND"],
    message: "is a test hook that stalls ledger batches; it is honoured only with NODE_ENV=test: unset it",
  })
  .refine((env) => env.TEST_HOLD_CLOSE_INTAKE_MS === undefined || env.NODE_ENV === "test", {
    path: ["TEST_HOLD_CLOSE_INTAKE_MS"],
    message: "is a test hook that stalls the close intake; it is honoured only with NODE_ENV=test: unset it",
  })
  .refine((env) => env.TEST_PLANTED_BUG === undefined || env.NODE_ENV === "test", {
    path: ["TEST_PLANTED_BUG"],
    message:
      "is a test hook that breaks the ledger on purpose; it is honoured only with NODE_ENV=test: unset it",
  });
export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export function readWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  return workerEnvSchema.parse(source);
}
