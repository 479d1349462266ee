import { z } from "zod";

/**
 * The CI campaign's settings (`pnpm test:campaign` with no arguments): which seeds, how long each.
 * The defaults are what `.ci/run` runs; a longer run sets them (docs/reliability.md, "The campaign").
 */
// Seeds 2 and 3 by default: one on a single server, one on the semi-synchronous pair (`seedTopology`).
export const campaignEnv = z
  .object({
    CAMPAIGN_FIRST_SEED: z.coerce.number().int().min(1).default(2),
    CAMPAIGN_SEEDS: z.coerce.number().int().min(1).default(2),
    CAMPAIGN_MINUTES: z.coerce.number().min(0.5).max(120).default(1),
    /** Runs every planted bug's catching seed twice, not only the first bug's. */
    CAMPAIGN_REPLAY_ALL: z
      .enum(["0", "1"])
      .default("0")
      .transform((value) => value === "1"),
    /** The Galera topology's `wsrep_sync_wait` (1, as two written nodes require; 0 to measure without). */
    CAMPAIGN_GALERA_SYNC_WAIT: z.coerce.number().int().min(0).max(15).default(1),
  })
  .parse(process.env);
