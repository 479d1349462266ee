import { partitionsEnvShape } from "@wallet/queue/redis-env";
import { z } from "zod";
import { sides } from "./sides.ts";

/** A comma-separated setting as a list of its trimmed, non-empty items. */
export const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text) =>
      text
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    );
const extraEnv = z
  .string()
  .default("{}")
  .transform((text) => z.record(z.string(), z.string()).parse(JSON.parse(text)));

/** `pnpm bench`'s settings; every default is the issue's workload on this machine. */
export const benchEnvSchema = z.object({
  /** The server to use; the benchmark creates (and drops) a database of its own on it. */
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  BENCH_DATABASE: z.string().regex(/^\w+$/).default("wallet_bench"),
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  BENCH_PLAYERS: z.coerce.number().int().min(64).default(1000),
  /**
   * `pnpm bench`: applied outbox rows, 8 days old, seeded before the runs, so the worker's pruner
   * (OUTBOX_RETENTION_DAYS 7) deletes them while the load runs (0: none).
   */
  BENCH_APPLIED_OUTBOX_ROWS: z.coerce.number().int().min(0).default(0),
  /** `src/outbox-retention.ts`: applied outbox rows to seed. */
  BENCH_OUTBOX_ROWS: z.coerce.number().int().min(1_000).default(2_000_000),
  BENCH_CONCURRENCY: list("1,16,64").transform((items) =>
    items.map((item) => z.coerce.number().int().min(1).parse(item)),
  ),
  /** Rounds of runs per concurrency, each side once per round (A/B/C, then B/C/A): medians are quoted. */
  BENCH_PAIRS: z.coerce.number().int().min(1).default(2),
  BENCH_SECONDS: z.coerce.number().positive().default(15),
  BENCH_WARMUP_SECONDS: z.coerce.number().min(0).default(3),
  /**
   * Longest wait, before each run, for MariaDB to flush its dirty pages (src/settle.ts). On a server
   * other work writes to (the test suite) they never reach 0 and every run waits this long.
   */
  BENCH_SETTLE_SECONDS: z.coerce.number().min(0).default(30),
  BENCH_SIDES: list(sides.join(",")).pipe(z.array(z.enum(sides)).min(1)),
  /** The product's default (`LEDGER_PARTITIONS`); set it to compare another count. */
  BENCH_PARTITIONS: z.coerce
    .number()
    .int()
    .min(1)
    .default(partitionsEnvShape.LEDGER_PARTITIONS.parse(undefined)),
  BENCH_ROLLBACK_RATE: z.coerce.number().min(0).max(1).default(0.05),
  /** 1: every round ends with a CLOSE_ROUND and its four side effects (the product and the reference only). */
  BENCH_CLOSE_ROUNDS: z.enum(["0", "1"]).default("0"),
  BENCH_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0.02),
  /** Write V8 CPU profiles of the gateway, worker and reference processes into this folder. */
  BENCH_CPU_PROFILE_DIR: z.string().optional(),
  /** Extra environment for the system's processes (JSON objects), to try settings side by side. */
  BENCH_GATEWAY_ENV: extraEnv,
  BENCH_WORKER_ENV: extraEnv,
  /** `1`: print MariaDB status and Redis command deltas per callback for each run (src/server-stats.ts). */
  BENCH_SERVER_STATS: z.enum(["0", "1"]).default("0"),
  BENCH_KEEP_DATABASE: z.enum(["0", "1"]).default("0"),
  BENCH_RESULTS_DIR: z.string().optional(),
});
export type BenchEnv = z.infer<typeof benchEnvSchema>;

export function readBenchEnv(source: Record<string, string | undefined> = process.env): BenchEnv {
  return benchEnvSchema.parse(source);
}
