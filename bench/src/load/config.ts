import { z } from "zod";

/** One load run, sent by the orchestrator over IPC (so the tenant's secret never sits in argv or logs). */
export const loadConfig = z.object({
  /** Base URL of the wallet under test (the queued gateway, the reference wallet or the floor). */
  target: z.string().url(),
  publicKey: z.string().min(1),
  secretKey: z.string().min(1),
  concurrency: z.number().int().min(1),
  warmupSeconds: z.number().min(0),
  seconds: z.number().positive(),
  players: z.array(z.object({ userId: z.string(), sessionToken: z.string() })).min(1),
  rollbackRate: z.number().min(0).max(1),
  /** End each round with a CLOSE_ROUND (and so its four side effects) or not. */
  closeRounds: z.boolean(),
  duplicateRate: z.number().min(0).max(1),
  /** Per-request client timeout; the gateway's own deadline answers 503 well before it. */
  timeoutMs: z.number().int().positive(),
  seed: z.number().int(),
});
export type LoadConfig = z.infer<typeof loadConfig>;

/** A 200 the load received: the orchestrator checks each one is in the journal afterwards. */
export interface Acknowledged {
  action: "BET" | "WIN" | "ROLL_BACK" | "CLOSE_ROUND";
  providerTxId: string;
  operatorTxId: string;
  /** Signed journal amount the answer implies (0 for CLOSE_ROUND). */
  amount: string;
}

export interface LoadSummary {
  /** Requests completed inside the measured window. */
  requests: number;
  windowSeconds: number;
  throughput: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  /** p50/p99 per action inside the window: which callback is slow. */
  byAction: Record<string, { count: number; p50: number; p99: number }>;
  /** Status → count inside the window (0 = timeout or connection error). */
  statuses: Record<string, number>;
  /** Statuses over the whole run, warm-up included. */
  statusesAll: Record<string, number>;
  duplicatesSent: number;
  /** A resent request whose answer was not byte-equal to the first one. */
  duplicateMismatches: number;
  cycles: number;
  acknowledged: Acknowledged[];
}

/** Messages from the load process to the orchestrator. */
export type LoadMessage =
  | { type: "measuring" }
  | { type: "measured" }
  | { type: "summary"; summary: LoadSummary }
  | { type: "error"; message: string };
