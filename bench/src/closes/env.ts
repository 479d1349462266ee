import { z } from "zod";
import { list } from "../env.ts";
import { closeCaseNames } from "./close-cases.ts";
import { conditions } from "./conditions.ts";

const choices = <T extends string>(fallback: string, items: readonly [T, ...T[]]) =>
  list(fallback).pipe(z.array(z.enum(items)).min(1));

/** `pnpm bench:closes`'s settings; every default is issue 39's measurement on this machine. */
export const closesEnvSchema = z.object({
  /** The server to use; the benchmark creates (and drops) its databases on it. */
  DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
  REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
  /** The current version's database; the version before gets `<name>_before`. */
  BENCH_CLOSES_DATABASE: z.string().regex(/^\w+$/).default("wallet_bench_closes"),
  /** A checkout of the version to compare with (3eec769), its dependencies installed; unset: current only. */
  BENCH_CLOSES_BEFORE: z.string().optional(),
  BENCH_CLOSES_CASES: choices(closeCaseNames.join(","), closeCaseNames),
  BENCH_CLOSES_CONDITIONS: choices(conditions.join(","), conditions),
  /** The platform's first resend waits this long, then twice as long each time (contract: 5 s). */
  BENCH_CLOSES_RESEND_BASE_MS: z.coerce.number().int().min(10).default(5_000),
  /** Sends of one callback in all, the first included (contract: 5). */
  BENCH_CLOSES_SENDS: z.coerce.number().int().min(1).max(10).default(5),
  /** The platform's timeout per send (the simulator's SIM_CALLBACK_TIMEOUT_MS); a timeout is resent like a 5xx. */
  BENCH_CLOSES_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** Seeded players per operator (two operators). */
  BENCH_CLOSES_PLAYERS: z.coerce.number().int().min(8).default(128),
  /** Closed loops per operator's load process under load (two operators: c64 in all). */
  BENCH_CLOSES_LOAD_CONCURRENCY: z.coerce.number().int().min(1).default(32),
  /** `1`: the contention condition runs the load too (the c64 of two operators); `0`: the idle players. */
  BENCH_CLOSES_CONTENTION_LOAD: z.enum(["0", "1"]).default("1"),
  /** Other players playing before a close is sent (their statuses count from the close's first send). */
  BENCH_CLOSES_WARMUP_SECONDS: z.coerce.number().min(0).default(2),
  /** How often the worker's RSS and Redis' memory are read during a close. */
  BENCH_CLOSES_SAMPLE_MS: z.coerce.number().int().min(5).default(25),
  /** Longest wait, after a close is answered, for its round's four side effects (they load the machine too). */
  BENCH_CLOSES_EFFECTS_SECONDS: z.coerce.number().min(0).default(90),
  BENCH_CLOSES_KEEP_DATABASE: z.enum(["0", "1"]).default("0"),
  BENCH_RESULTS_DIR: z.string().optional(),
});
export type ClosesEnv = z.infer<typeof closesEnvSchema>;

export function readClosesEnv(source: Record<string, string | undefined> = process.env): ClosesEnv {
  return closesEnvSchema.parse(source);
}
