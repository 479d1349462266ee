import { repoRoot } from "@wallet/system-tests/harness/processes/launch";
import { z } from "zod";

/** Every phase, in the order they run when all are asked for. */
export const allPhases = "idle,serial,partition,load,operator,workers,replica,slots";

/** The study's settings (docs/scaling.md, "Reproduce"); every default is what the document quotes. */
export const scalingSettings = z.object({
  /** `private`: a MariaDB and a Redis of this run's own (clean counters and CPU); `shared`: the URLs below. */
  SCALING_SERVERS: z.enum(["private", "shared"]).default("private"),
  SCALING_PHASES: z
    .string()
    .default(allPhases)
    .transform((text) => new Set(text.split(",").map((item) => item.trim()))),
  SCALING_PLAYERS: z.coerce.number().int().min(64).default(1000),
  SCALING_SECONDS: z.coerce.number().positive().max(60).default(20),
  SCALING_WARMUP_SECONDS: z.coerce.number().min(0).default(3),
  SCALING_CONCURRENCY: z
    .string()
    .default("16,64")
    .transform((text) => text.split(",").map((item) => z.coerce.number().int().min(1).parse(item.trim()))),
  SCALING_SERIAL_CALLBACKS: z.coerce.number().int().min(10).default(200),
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  SCALING_RESULTS_DIR: z.string().default(`${repoRoot}bench/results`),
});
export type ScalingSettings = z.infer<typeof scalingSettings>;

/** The database of every phase (the replica's on its primary): recreated first, dropped on shared servers. */
export const databaseName = "wallet_scaling";
