import { z } from "zod";

/** The skewed-clock preload's only setting: how far this process's wall clock is off, in ms (+ ahead). */
export const clockSkewMs = z.coerce.number().int().default(0).parse(process.env.CLOCK_SKEW_MS);
