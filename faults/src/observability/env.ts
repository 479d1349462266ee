import { z } from "zod";

/**
 * The observability suite's two settings. `OBSERVABILITY_UNTIL=firing` holds each fault until its
 * alerts fire, not only go pending: minutes longer, and how the runbook's alert timings were measured.
 * `OBSERVABILITY_SNAPSHOT_FILE` is where every panel's data over the whole run is written for
 * `pnpm dashboards:snapshot` (nothing is written without it).
 */
export const observabilityEnv = z
  .object({
    OBSERVABILITY_UNTIL: z.enum(["pending", "firing"]).default("pending"),
    OBSERVABILITY_SNAPSHOT_FILE: z.string().optional(),
  })
  .parse(process.env);
