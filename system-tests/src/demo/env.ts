import { fileURLToPath } from "node:url";
import { redisEnvShape } from "@wallet/queue/redis-env";
import { z } from "zod";

// The first-run demo's settings: where the local system listens, and how much to play.
export const demoEnv = z
  .object({
    OPERATOR_API_URL: z.string().default("http://127.0.0.1:3100"),
    OPERATOR_API_TOKEN: z.string().default("dev-operator-token"),
    SIM_URL: z.string().default("http://127.0.0.1:3200"),
    DATABASE_URL: z.string().default("mysql://root@127.0.0.1:3306/wallet"),
    /** The workers' Redis: the demo takes its round reports off their reporting queue. */
    ...redisEnvShape,
    /** Where the demo's reports go, as `pnpm reporting:export` writes them (default `reports/`, git-ignored). */
    DEMO_REPORTS_DIR: z.string().default(fileURLToPath(new URL("../../../reports", import.meta.url))),
    OPERATOR_ID: z.coerce.number().int().positive().default(1),
    DEMO_PLAYERS: z.coerce.number().int().min(1).max(200).default(6),
    DEMO_ROUNDS: z.coerce.number().int().min(1).default(60),
    DEMO_PAUSE_MS: z.coerce.number().int().min(0).default(150),
  })
  .parse(process.env);
